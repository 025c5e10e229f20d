/**
 * Hostile archive imports (part of `npm run bench -- hostile`; AGENT_DESK_BENCH_HOSTILE=import runs
 * only these): archives whose memories.json is `[{},{},…]` (165 MB and 30 MB) and one of 1,000,001
 * valid-looking rows, each uploaded to POST /api/import of the server run as a child process, while
 * one client loops GET /api/agents. Per case: the archive's size, how the import ended, the wall
 * time, the peak resident-memory growth of the server over its RSS before the upload, its growth
 * once the import has ended (after a 2 s settle), and the p99 of GET /api/agents meanwhile.
 * Targets: every case a 422 naming what is wrong, peak growth <= 256 MB. (The growth after is
 * reported, not judged: what the import thread's allocator keeps is returned to the OS late.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Figures } from '../run.js';
import { startServer } from '../../test/api/server-process.js';
import { tarEnd, tarEntry, tarHeader, tarPadding } from '../../src-main/platform/modules/archive/tar.js';

const KEY = 'bench-key-hostile-import-0123456789';
const MB = 1024 * 1024;
const auth = { authorization: `Bearer ${KEY}` };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};

/** Writes a tar holding `memories.json` (the bytes `body` yields) and a manifest; its size. */
function writeArchive(file: string, size: number, body: (write: (b: Buffer) => void) => void): number {
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, tarHeader('memories.json', size));
    let written = 0;
    body((b) => {
      fs.writeSync(fd, b);
      written += b.length;
    });
    if (written !== size) throw new Error(`wrote ${written} bytes, announced ${size}`);
    fs.writeSync(fd, tarPadding(size));
    fs.writeSync(fd, tarEntry('manifest.json', Buffer.from(JSON.stringify({ format: 'agent-desk-export', version: 1 }))));
    fs.writeSync(fd, tarEnd());
  } finally {
    fs.closeSync(fd);
  }
  return fs.statSync(file).size;
}

/** `[{},{},…]` of about `mb` MB. */
function emptyRows(file: string, mb: number): number {
  const n = Math.floor((mb * MB) / 3);
  const chunk = Buffer.alloc(3 * 65536, '{},');
  const size = 1 + 3 * n + 3;
  return writeArchive(file, size, (w) => {
    w(Buffer.from('['));
    for (let left = n; left > 0; left -= 65536) w(left >= 65536 ? chunk : chunk.subarray(0, 3 * left));
    w(Buffer.from('{}]'));
  });
}

/** 1,000,001 rows that each pass the schema: the row limit, reached after a million parsed rows. */
function manyRows(file: string): number {
  const rows = 1_000_001;
  const row = (i: number) => `{"id":${i + 1},"collection_id":1,"memory":"m","created_at":1,"updated_at":1}`;
  let size = 2 + rows - 1;
  for (let i = 0; i < rows; i++) size += row(i).length;
  return writeArchive(file, size, (w) => {
    w(Buffer.from('['));
    let batch: string[] = [];
    for (let i = 0; i < rows; i++) {
      batch.push(row(i));
      if (batch.length === 10_000 || i === rows - 1) {
        w(Buffer.from(batch.join(',') + (i === rows - 1 ? '' : ',')));
        batch = [];
      }
    }
    w(Buffer.from(']'));
  });
}

export async function hostileImports(f: Figures): Promise<boolean> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-hostile-import-'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-hostile-archives-'));
  const server = await startServer({ dataDir, runner: 'node', env: { AGENT_DESK_API_KEY: KEY }, timeoutMs: 120_000 });
  let ok = true;
  try {
    const cases: [string, (file: string) => number][] = [
      ['memories.json [{},{},…] 165 MB', (file) => emptyRows(file, 165)],
      ['memories.json [{},{},…] 30 MB', (file) => emptyRows(file, 30)],
      ['memories.json 1,000,001 valid rows', manyRows],
    ];
    for (const [label, make] of cases) {
      const file = path.join(work, 'archive.tar');
      const bytes = make(file);
      // Settle first, so the figure is the import's own.
      await new Promise((r) => setTimeout(r, 2000));
      const base = server.rss()!;
      let peak = base;
      const sampler = setInterval(() => (peak = Math.max(peak, server.rss() ?? 0)), 20);
      let done = false;
      const latencies: number[] = [];
      const loop = (async () => {
        while (!done) {
          const t = performance.now();
          const r = await fetch(`${server.url}/api/agents`, { headers: auth });
          await r.arrayBuffer();
          latencies.push(performance.now() - t);
        }
      })();
      const t0 = performance.now();
      const form = new FormData();
      form.append('archive', await fs.openAsBlob(file), 'hostile.tar');
      const r = await fetch(`${server.url}/api/import`, { method: 'POST', headers: auth, body: form });
      const j = (await r.json()) as { message?: string };
      const seconds = (performance.now() - t0) / 1000;
      done = true;
      await loop;
      clearInterval(sampler);
      await new Promise((res) => setTimeout(res, 2000));
      const after = server.rss()!;
      const peakMb = (peak - base) / MB;
      const afterMb = (after - base) / MB;
      f[`${label}: archive MB`] = Math.round(bytes / MB);
      f[`${label}: ended`] = `${r.status} ${String(j.message).slice(0, 120)}`;
      f[`${label}: wall s`] = seconds;
      f[`${label}: peak server RSS growth MB (target <= 256)`] = peakMb;
      f[`${label}: server RSS growth 2 s after MB`] = afterMb;
      f[`${label}: GET /api/agents p99 ms meanwhile`] = `${pct(latencies, 99).toFixed(1)} (${latencies.length} requests)`;
      ok &&= r.status === 422 && peakMb <= 256;
      fs.rmSync(file, { force: true });
    }
    f['imports: every case 422, peak growth <= 256 MB'] = ok;
  } finally {
    server.kill();
    await server.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  }
  return ok;
}
