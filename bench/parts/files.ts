/**
 * Files bench. Every figure is a ratio against a baseline measured in the same run,
 * or a percentile checked against its target:
 *  - PDF extraction (50 pages): our extractor (pdf.js via unpdf, plus passage splitting) as a
 *    throughput ratio of poppler's `pdftotext` on the same file.
 *  - Large docx: mammoth extraction plus splitting, as a ratio of merely unzipping and
 *    stripping the tags of word/document.xml.
 *  - A 200 MB upload over real HTTP to the server run as a child process: MB/s (and its ratio
 *    to a bare Node server that discards the bytes) and the server's peak RSS growth (target < 64 MB).
 *  - GET /api/agents p99 while a 100 MB file is processing (target < 50 ms), and its ratio to idle.
 * Full-text retrieval over a million passages is the retrieval part's (bm25 and hybrid, one fill).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import JSZip from 'jszip';
import type { BenchPart, Figures } from '../run.js';
import { makeDocx, makePdf } from '../../test/fixtures/documents.js';
import { startServer } from '../../test/api/server-process.js';
import { extractPdf } from '../../src-main/platform/ingest/extract/pdf.js';
import { extractWord } from '../../src-main/platform/ingest/extract/word.js';
import { Chunker } from '../../src-main/platform/ingest/chunk.js';
import type { ExtractionInput, Extractor } from '../../src-main/platform/ingest/types.js';
import { median, pct, time } from '../helpers/stats.js';

const KEY = 'bench-key-files-0123456789';
const MB = 1024 * 1024;

async function extractOnce(extract: Extractor, file: string, ext: string, kind: string): Promise<number> {
  const input: ExtractionInput = { fileId: 0, path: file, ext, kind, filename: path.basename(file), bytes: fs.statSync(file).size, dbPath: '' };
  let passages = 0;
  const chunker = new Chunker(() => passages++);
  await extract(input, { text: (s) => chunker.push(s) });
  chunker.end();
  return passages;
}

async function pdfFigures(dir: string, f: Figures): Promise<void> {
  const words = 'market growth forecast revenue customer product region quarter analysis strategy planning report budget team result'.split(' ');
  const pdf = await makePdf(50, (page) => Array.from({ length: 55 }, (_, l) => Array.from({ length: 14 }, (_, w) => words[(page * 7 + l * 3 + w) % words.length]).join(' ')));
  const file = path.join(dir, 'bench.pdf');
  fs.writeFileSync(file, pdf);
  let passages = 0;
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < 5; i++) {
    ours.push(await time(async () => (passages = await extractOnce(extractPdf, file, 'pdf', 'pdf'))));
    theirs.push(await time(() => execFileSync('pdftotext', ['-q', file, path.join(dir, 'bench.txt')])));
  }
  f['pdf_50_pages_bytes'] = pdf.length;
  f['pdf_50_pages_passages'] = passages;
  f['pdf_ours_ms_median'] = median(ours);
  f['pdf_pdftotext_ms_median'] = median(theirs);
  f['pdf_throughput_ratio_vs_pdftotext'] = median(theirs) / median(ours);
}

async function docxFigures(dir: string, f: Figures): Promise<void> {
  const para = (i: number) => `Paragraph ${i}: the committee reviewed the budget, the schedule and the staffing plan for the coming year, and agreed on the next steps.`;
  const docx = await makeDocx(Array.from({ length: 20_000 }, (_, i) => para(i)));
  const file = path.join(dir, 'bench.docx');
  fs.writeFileSync(file, docx);
  const ours: number[] = [];
  const base: number[] = [];
  let chars = 0;
  for (let i = 0; i < 3; i++) {
    ours.push(await time(() => extractOnce(extractWord, file, 'docx', 'word')));
    base.push(
      await time(async () => {
        const zip = await JSZip.loadAsync(fs.readFileSync(file));
        chars = (await zip.file('word/document.xml')!.async('string')).replace(/<[^>]+>/g, ' ').length;
      }),
    );
  }
  f['docx_bytes'] = docx.length;
  f['docx_text_chars_approx'] = chars;
  f['docx_ours_ms_median'] = median(ours);
  f['docx_text_Mchars_per_s'] = chars / 1e6 / (median(ours) / 1000);
  f['docx_throughput_ratio_vs_unzip_strip'] = median(base) / median(ours);
}

function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Streams `total` bytes as a multipart upload from one reused 1 MiB buffer. */
function uploadStream(url: string, total: number, name: string, fill: Buffer): Promise<{ status: number; body: string; ms: number }> {
  const boundary = 'BenchBoundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const u = new URL(url);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + total + tail.length },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        const n = Math.min(fill.length, total - sent);
        sent += n;
        if (!req.write(n === fill.length ? fill : fill.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    req.write(head);
    pump();
  });
}

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    http
      .get(url, { headers: { authorization: `Bearer ${KEY}` } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t) : reject(new Error(`GET ${url}: ${res.statusCode}`))));
      })
      .on('error', reject);
  });
}

async function latencies(url: string, ms: number): Promise<number[]> {
  const out: number[] = [];
  const end = performance.now() + ms;
  while (performance.now() < end) out.push(await get(url));
  return out;
}

async function discardServerMBps(total: number, fill: Buffer): Promise<number> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const r = await uploadStream(`http://127.0.0.1:${port}/`, total, 'x.txt', fill);
  server.close();
  return total / MB / (r.ms / 1000);
}

async function serverFigures(dir: string, f: Figures): Promise<void> {
  const server = await startServer({ dataDir: path.join(dir, 'server'), env: { AGENT_DESK_API_KEY: KEY } });
  const { child, url } = server;
  try {
    const agents = `${url}/api/agents`;
    await latencies(agents, 1000); // warm up
    const fill = Buffer.alloc(MB, 'The quick brown fox jumps over the lazy dog. Retrieval passages are made from text like this.\n');
    const before = rssKb(child.pid!);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssKb(child.pid!))), 20);
    const up = await uploadStream(`${url}/api/files`, 200 * MB, 'big.txt', fill);
    clearInterval(sampler);
    if (up.status !== 200) throw new Error(`upload: ${up.status} ${up.body}`);
    f['upload_200MB_MB_per_s'] = 200 / (up.ms / 1000);
    f['upload_ratio_vs_discarding_node_server'] = f['upload_200MB_MB_per_s'] / (await discardServerMBps(200 * MB, fill));
    f['upload_server_peak_rss_growth_MB'] = (peak - before) / 1024;
    f['upload_rss_growth_under_64MB'] = (peak - before) / 1024 < 64;

    const idle = await latencies(agents, 3000);
    const hundred = await uploadStream(`${url}/api/files`, 100 * MB, 'hundred.txt', fill);
    const id = JSON.parse(hundred.body).id as number;
    const t0 = performance.now();
    let processed: { status: string } | null = null;
    const processing = new Promise<void>((resolve, reject) => {
      const req = http.request(`${url}/api/files/${id}/process`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => {
          processed = JSON.parse(body);
          resolve();
        });
      });
      req.on('error', reject);
      req.end();
    });
    const busy: number[] = [];
    while (!processed && performance.now() - t0 < 150_000) busy.push(await get(agents));
    await processing;
    f['process_100MB_txt_s'] = (performance.now() - t0) / 1000;
    f['process_100MB_status'] = (processed as unknown as { status: string }).status;
    f['agents_idle_p99_ms'] = pct(idle, 99);
    f['agents_p99_ms_while_processing_100MB'] = pct(busy, 99);
    f['agents_p99_while_processing_under_50ms'] = pct(busy, 99) < 50;
    f['agents_p99_ratio_busy_vs_idle'] = pct(busy, 99) / pct(idle, 99);
  } finally {
    // stop() resolves once the process has exited (a second wait for 'exit' would never end).
    await server.stop();
  }
}

const part: BenchPart = {
  name: 'files',
  async run() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-files-'));
    const f: Figures = {};
    try {
      // Progress on stderr: the part prints its figures only at the end.
      const step = async (name: string, fn: (dir: string, f: Figures) => Promise<void>) => {
        const t = performance.now();
        await fn(dir, f);
        process.stderr.write(`  files: ${name} done in ${((performance.now() - t) / 1000).toFixed(1)} s ${JSON.stringify(f)}\n`);
      };
      // AGENT_DESK_BENCH_FILES=server,pdf (or FILES_BENCH_ONLY=...) runs only those steps.
      const only = (process.env.AGENT_DESK_BENCH_FILES ?? process.env.FILES_BENCH_ONLY ?? '').split(',').filter(Boolean);
      const steps: [string, (dir: string, f: Figures) => Promise<void>][] = [
        ['pdf', pdfFigures],
        ['docx', docxFigures],
        ['server', serverFigures],
      ];
      for (const [name, fn] of steps) if (!only.length || only.includes(name)) await step(name, fn);
      return f;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
export default part;
