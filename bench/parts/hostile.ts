/**
 * Hostile documents bench: each bomb class of test/fixtures/bombs.ts is uploaded to the server
 * run as a child process (`serve`, real HTTP on loopback) and processed, while one client loops
 * GET /api/agents. Per class: the file's size, how it ended, the wall time to its end, the peak
 * resident-memory growth of the server and its child processes (the extraction processes) over
 * their sum before the upload, and the p99 of GET /api/agents meanwhile, as a ratio to its idle
 * p99 measured in the same run. Targets: peak growth <= 512 MB for a file <= 10 MB, every bomb
 * ended within 60 s, API p99 <= 50 ms.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchPart, Figures } from '../run.js';
import { startServer, type ServerProcess } from '../../test/api/server-process.js';
import { lzwBomb, pdfWithContent } from '../../test/hostile/support/lzw.js';
import { docxZipBomb, longRunDocx, longRunText, pdfPageTreeBomb, pdfRunLengthBomb, pdfStreamBomb, xlsxRangeBomb } from '../../test/fixtures/bombs.js';

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
  const processing = fetch(`${server.url}/api/files/${id}/process`, { method: 'POST', headers: auth }).then(async (r) => {
    const j = (await r.json()) as { status: string; error?: string };
    done = true;
    return j;
  });
  const latencies = agentsLatencies(server.url, () => done);
  let file = await processing;
  const seconds = (performance.now() - t0) / 1000;
  // The process endpoint answers after 100 s at most; a file still running then is reported as such.
  if (file.status === 'in_progress') file = { status: 'still in_progress after 100 s' };
  const lat = await latencies;
  clearInterval(sampler);
  return { status: file.status, error: file.error, seconds, peakMb: (peak - base) / MB, p99: pct(lat, 99), requests: lat.length };
}

const bench: BenchPart = {
  name: 'hostile',
  async run(): Promise<Figures> {
    if (!fs.existsSync('/proc/self/status')) throw new Error('This bench reads resident memory from /proc (Linux only).');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-hostile-'));
    const server = await startServer({ dataDir, runner: 'node', env: { AGENT_DESK_API_KEY: KEY }, timeoutMs: 120_000 });
    const f: Figures = {};
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
    return f;
  },
};

export default bench;
