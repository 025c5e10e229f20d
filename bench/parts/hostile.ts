/**
 * Hostile bench, two halves against the server run as a child process (`serve`, real HTTP on loopback).
 *
 * Hostile providers (first): a fake OpenAI-compatible provider on loopback that sends only SSE
 * keep-alive comments, trickles one real token a second forever, or streams tool-call arguments
 * without end, once and seven at once. The server runs with a 5 s idle limit and a 20 s deadline
 * (AGENT_DESK_PROVIDER_IDLE_TIMEOUT_S, AGENT_DESK_PROVIDER_DEADLINE_S). Per case: how each execution
 * ended, the wall time to its end and the peak resident-memory growth of the server. Targets: every
 * execution failed with a reason within its limit (idle, deadline, or at once at a byte cap), peak
 * growth <= 128 MB. AGENT_DESK_BENCH_HOSTILE=providers runs only this half.
 *
 * Hostile documents: each bomb class of test/fixtures/bombs.ts is uploaded and processed, while one
 * client loops GET /api/agents. Per class: the file's size, how it ended, the wall time to its end,
 * the peak resident-memory growth of the server and its child processes (the extraction processes)
 * over their sum before the upload, and the p99 of GET /api/agents meanwhile, as a ratio to its idle
 * p99 measured in the same run. Targets: peak growth <= 512 MB for a file <= 10 MB, every bomb
 * ended within 60 s, API p99 <= 50 ms.
 *
 * Hostile pages and embeddings: bench/helpers/hostile-web.ts (AGENT_DESK_BENCH_HOSTILE=web runs only these).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchPart, Figures } from '../run.js';
import { startServer, type ServerProcess } from '../../test/api/server-process.js';
import { lzwBomb, pdfWithContent } from '../../test/hostile/support/lzw.js';
import { docxZipBomb, longRunDocx, longRunText, pdfPageTreeBomb, pdfRunLengthBomb, pdfStreamBomb, xlsxRangeBomb } from '../../test/fixtures/bombs.js';
import { startFakeOpenAI, type FakeOpenAIOptions } from '../../test/fixtures/fake-openai.js';
import { hostileImports } from '../helpers/hostile-import.js';
import { hostileWeb } from '../helpers/hostile-web.js';

const KEY = 'bench-key-hostile-0123456789';
const MB = 1024 * 1024;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};

/** Resident memory (bytes) of a process and all its descendants, from /proc (Linux). */
function treeRss(root: number): number {
  const parent = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(name), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (pid: number) => {
    for (let p: number | undefined = pid, n = 0; p && n < 64; p = parent.get(p), n++) if (p === root) return true;
    return false;
  };
  let total = 0;
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    try {
      const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) total += Number(m[1]) * 1024;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

const auth = { authorization: `Bearer ${KEY}` };

async function agentsLatencies(url: string, until: () => boolean, max = 5000): Promise<number[]> {
  const out: number[] = [];
  while (!until() && out.length < max) {
    const t = performance.now();
    const r = await fetch(`${url}/api/agents`, { headers: auth });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`GET /api/agents answered ${r.status}`);
    out.push(performance.now() - t);
  }
  return out;
}

async function uploadFile(url: string, name: string, bytes: Buffer): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const r = await fetch(`${url}/api/files`, { method: 'POST', headers: auth, body: form });
  const j = (await r.json()) as { id?: number; message?: string };
  if (r.status !== 200 || !j.id) throw new Error(`upload of ${name} answered ${r.status}: ${j.message}`);
  return j.id;
}

interface Outcome {
  status: string;
  error?: string;
  seconds: number;
  peakMb: number;
  p99: number;
  requests: number;
}

async function runBomb(server: ServerProcess, name: string, bytes: Buffer): Promise<Outcome> {
  const pid = server.child.pid!;
  const id = await uploadFile(server.url, name, bytes);
  const base = treeRss(pid);
  let peak = base;
  let done = false;
  const sampler = setInterval(() => (peak = Math.max(peak, treeRss(pid))), 50);
  const t0 = performance.now();
  // The bomb is over once its text is read (or refused): a file whose passages wait for vectors
  // reads in_progress with vectors "pending", and the embedder's pace is not the bomb's.
  const asked = new AbortController();
  void fetch(`${server.url}/api/files/${id}/process`, { method: 'POST', headers: auth, signal: asked.signal }).catch(() => {});
  const latencies = agentsLatencies(server.url, () => done);
  let file: { status: string; error?: string; vectors?: string };
  for (;;) {
    file = (await (await fetch(`${server.url}/api/files/${id}`, { headers: auth })).json()) as typeof file;
    if ((file.status !== 'waiting' && file.status !== 'in_progress') || file.vectors === 'pending' || performance.now() - t0 > 100_000) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  done = true;
  asked.abort();
  const seconds = (performance.now() - t0) / 1000;
  if (file.status === 'in_progress') file = { status: file.vectors === 'pending' ? 'text read (vectors being made)' : 'still in_progress after 100 s' };
  const lat = await latencies;
  clearInterval(sampler);
  // Its vectors are not this bench's: the next bomb runs without them.
  await fetch(`${server.url}/api/files/${id}`, { method: 'DELETE', headers: auth });
  return { status: file.status, error: file.error, seconds, peakMb: (peak - base) / MB, p99: pct(lat, 99), requests: lat.length };
}

const IDLE_S = 5;
const DEADLINE_S = 20;

/** Runs `n` executions of the chat agent at once against the fake in its current mode; how they ended, wall time, peak RSS growth. */
async function runExecutions(server: ServerProcess, n: number): Promise<{ ended: string; seconds: number; peakMb: number }> {
  const pid = server.child.pid!;
  const base = treeRss(pid);
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, treeRss(pid))), 50);
  const t0 = performance.now();
  try {
    const results = await Promise.all(
      Array.from({ length: n }, async () => {
        const body = { model: 'gpt-4o-mini', tools: 'no-tools', temperature: '0.5', messages: [{ role: 'user', content: 'Write it all down.' }], wait_execution: true };
        const r = await fetch(`${server.url}/api/agents/1/execute`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const j = (await r.json()) as { responses?: { status: string; error?: { code: string; message: string } }[]; message?: string };
        const e = j.responses?.[0];
        return e ? `${e.status}${e.error ? ` ${e.error.code}: ${e.error.message.slice(0, 110)}` : ''}` : `HTTP ${r.status}: ${j.message}`;
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const distinct = [...new Set(results)];
    return { ended: distinct.length === 1 ? (n > 1 ? `all ${n}: ${distinct[0]}` : distinct[0]) : distinct.join(' | '), seconds, peakMb: (peak - base) / MB };
  } finally {
    clearInterval(sampler);
  }
}

async function hostileProviders(f: Figures): Promise<boolean> {
  const fake = await startFakeOpenAI();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-hostile-providers-'));
  const server = await startServer({
    dataDir,
    runner: 'node',
    env: {
      AGENT_DESK_API_KEY: KEY,
      AGENT_DESK_OPENAI_BASE_URL: fake.url,
      AGENT_DESK_OPENAI_API_KEY: 'sk-bench',
      AGENT_DESK_PROVIDER_IDLE_TIMEOUT_S: String(IDLE_S),
      AGENT_DESK_PROVIDER_DEADLINE_S: String(DEADLINE_S),
    },
    timeoutMs: 120_000,
  });
  let ok = true;
  try {
    // [label, fake mode, executions at once, the limit it must end within (s)]
    const cases: [string, FakeOpenAIOptions, number, number][] = [
      ['keep-alive comments every 1 s', { keepAlive: { everyMs: 1000 } }, 1, IDLE_S],
      ['empty deltas every 1 s', { keepAlive: { everyMs: 1000, kind: 'empty' } }, 1, IDLE_S],
      ['one real token every 1 s, forever', { tokens: Array.from({ length: 100_000 }, (_, i) => `w${i} `), delayMs: 1000 }, 1, DEADLINE_S],
      ['endless tool-call arguments', { endlessToolArguments: {} }, 1, IDLE_S],
      ['endless tool-call arguments, seven at once', { endlessToolArguments: {} }, 7, IDLE_S],
      ['keep-alive comments, seven at once', { keepAlive: { everyMs: 1000 } }, 7, IDLE_S],
    ];
    // A plain answer first, so that the first case's memory figure is not the server's own warm-up.
    fake.set({ reply: 'Warm.' });
    f['warm-up: a plain answer'] = (await runExecutions(server, 1)).ended;
    let worstPeak = 0;
    for (const [label, mode, n, limitS] of cases) {
      fake.set({ keepAlive: null, endlessToolArguments: null, tokens: undefined, delayMs: 0, ...mode });
      const o = await runExecutions(server, n);
      f[`${label}: ended`] = o.ended;
      f[`${label}: wall s (limit ${limitS})`] = o.seconds;
      f[`${label}: peak server RSS growth MB`] = o.peakMb;
      worstPeak = Math.max(worstPeak, o.peakMb);
      // A little over the limit for the request, the start of the stream and a loaded machine.
      ok &&= o.ended.includes('failed') && !o.ended.includes('succeeded') && o.seconds <= limitS + 5;
    }
    f['providers: worst peak server RSS growth MB (target <= 128)'] = worstPeak;
    ok &&= worstPeak <= 128;
    f['providers: all ended failed within their limit, RSS growth <= 128 MB'] = ok;
  } finally {
    server.kill();
    await server.exited;
    await fake.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return ok;
}

const bench: BenchPart = {
  name: 'hostile',
  async run(): Promise<Figures> {
    if (!fs.existsSync('/proc/self/status')) throw new Error('This bench reads resident memory from /proc (Linux only).');
    const f: Figures = {};
    if (process.env.AGENT_DESK_BENCH_HOSTILE === 'import') {
      await hostileImports(f);
      return f;
    }
    if (process.env.AGENT_DESK_BENCH_HOSTILE === 'web') {
      await hostileWeb(f);
      return f;
    }
    await hostileProviders(f);
    if (process.env.AGENT_DESK_BENCH_HOSTILE === 'providers') return f;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-hostile-'));
    const server = await startServer({ dataDir, runner: 'node', env: { AGENT_DESK_API_KEY: KEY }, timeoutMs: 120_000 });
    try {
      // Idle baseline: the same loop with nothing processing.
      let n = 0;
      const idle = await agentsLatencies(server.url, () => ++n > 300);
      const idleP99 = pct(idle, 99);
      f['GET /api/agents idle p99 ms'] = idleP99;
      const bombs: [string, string, () => Buffer][] = [
        ['PDF stream bomb (1.5 GB Flate)', 'stream.pdf', () => pdfStreamBomb(1500)],
        ['PDF RunLength bomb (256 MB)', 'rle.pdf', () => pdfRunLengthBomb(256)],
        ['PDF LZW bomb (1 GB)', 'lzw.pdf', () => pdfWithContent(lzwBomb(1024).data, '/LZWDecode')],
        ['PDF page-tree bomb (2^30 pages)', 'pages.pdf', () => pdfPageTreeBomb()],
        ['xlsx range bomb (A1:XFD1048576, one cell)', 'range.xlsx', () => xlsxRangeBomb()],
        ['xlsx range bomb (A1 and XFD1048576 filled)', 'spread.xlsx', () => xlsxRangeBomb('A1:XFD1048576', true)],
        ['docx zip ratio bomb (1 GB)', 'zip.docx', () => docxZipBomb(1024)],
        ['txt 8 MB run without spaces', 'run.txt', () => longRunText(8)],
        ['docx 4 MB run without spaces', 'run.docx', () => longRunDocx(4)],
      ];
      let worstPeak = 0;
      let worstSeconds = 0;
      let worstP99 = 0;
      for (const [label, name, make] of bombs) {
        const bytes = make();
        const o = await runBomb(server, name, bytes);
        f[`${label}: size KB`] = Math.round(bytes.length / 1024);
        f[`${label}: ended`] = o.error ? `${o.status}: ${o.error.slice(0, 90)}` : o.status;
        f[`${label}: wall s`] = o.seconds;
        f[`${label}: peak RSS growth MB`] = o.peakMb;
        f[`${label}: API p99 ms (x idle)`] = `${o.p99.toFixed(1)} (${(o.p99 / idleP99).toFixed(2)}x, ${o.requests} requests)`;
        worstPeak = Math.max(worstPeak, o.peakMb);
        worstSeconds = Math.max(worstSeconds, o.seconds);
        worstP99 = Math.max(worstP99, o.p99);
      }
      f['worst peak RSS growth MB (target <= 512)'] = worstPeak;
      f['worst wall s (target <= 60)'] = worstSeconds;
      f['worst API p99 ms (target <= 50)'] = worstP99;
      f['all targets met'] = worstPeak <= 512 && worstSeconds <= 60 && worstP99 <= 50;
    } finally {
      server.kill();
      await server.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    await hostileImports(f);
    await hostileWeb(f);
    return f;
  },
};

export default bench;
