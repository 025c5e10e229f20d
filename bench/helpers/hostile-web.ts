/**
 * Hostile pages and embeddings (part of `npm run bench -- hostile`; AGENT_DESK_BENCH_HOSTILE=web
 * runs only these), against the server run as a child process (`serve`, real HTTP on loopback).
 *
 * Pages: a run of the chat agent calls fetch_page (the fake provider asks for it) on a page of
 * 400 KB of `<!--`, of `<title>`, of `<nav>` (shapes on which the old regex reader backtracked for
 * seconds to minutes), then a plain page, while one client loops GET /api/agents. Per page: the
 * wall time of the run, the API's p99 and worst latency meanwhile, and the server's CPU seconds.
 * Targets: each run ends within 15 s with the page's text, API worst latency <= 250 ms.
 *
 * Embeddings: one input of 1,000,000 characters (refused at once by the token limits; it used to
 * run the embedder for 15 minutes), and 1,200 texts of ~180 tokens whose client leaves after 3 s of
 * work: the server's CPU seconds in the 10 s after it left (target: < 1 s, the embedder stopped).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Figures } from '../run.js';
import { startServer, type ServerProcess } from '../../test/api/server-process.js';
import { startFakeOpenAI } from '../../test/fixtures/fake-openai.js';

const KEY = 'bench-key-hostile-web-0123456789';
const auth = { authorization: `Bearer ${KEY}` };
const json = { ...auth, 'content-type': 'application/json' };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const PAGES: [string, string][] = [
  ['400 KB of <!--', '<!--'.repeat(100_000)],
  ['400 KB of <title>', `<p>x</p>${'<title>'.repeat(57_000)}`],
  ['400 KB of <nav>', `<p>x</p>${'<nav>'.repeat(80_000)}`],
  ['a plain 40 KB article', `<html><title>Bees</title><body><main>${'<p>Bees tend the hive and carry pollen between the flowers.</p>'.repeat(700)}</main></body></html>`],
];

async function pageServer() {
  const server = http.createServer((req, res) => {
    const i = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('i'));
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGES[i]?.[1] ?? '');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** GET /api/agents in a loop until `done`: each latency, and the requests that failed (a dropped connection). */
async function latencies(url: string, done: () => boolean): Promise<{ ms: number[]; failed: number }> {
  const ms: number[] = [];
  let failed = 0;
  while (!done()) {
    const t = performance.now();
    try {
      const r = await fetch(`${url}/api/agents`, { headers: auth });
      await r.arrayBuffer();
      if (r.status !== 200) failed++;
    } catch {
      failed++;
    }
    ms.push(performance.now() - t);
  }
  return { ms, failed };
}

async function pages(f: Figures, server: ServerProcess, fake: Awaited<ReturnType<typeof startFakeOpenAI>>, web: { url: string }): Promise<boolean> {
  let ok = true;
  for (const [i, [label]] of PAGES.entries()) {
    fake.set({ reply: 'Read.', toolCalls: [{ name: 'fetch_page', arguments: JSON.stringify({ url: `${web.url}/?i=${i}` }) }] });
    const cpu0 = server.cpuSeconds() ?? 0;
    let done = false;
    const t0 = performance.now();
    const run = fetch(`${server.url}/api/agents/1/execute`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ model: 'gpt-4o-mini', tools: 'internet', temperature: '0.5', messages: [{ role: 'user', content: 'Read the page.' }], wait_execution: true }),
    })
      .then(async (r) => ((await r.json()) as { responses?: { status: string; error?: { message: string } }[] }).responses?.[0])
      .catch((err: Error) => ({ status: `no answer (${err.message})`, error: undefined }))
      .finally(() => (done = true));
    const { ms: lat, failed } = await latencies(server.url, () => done);
    const e = await run;
    const seconds = (performance.now() - t0) / 1000;
    const worst = Math.max(...lat);
    f[`page ${label}: run ended`] = e ? `${e.status}${e.error ? `: ${e.error.message.slice(0, 80)}` : ''}` : 'no answer';
    f[`page ${label}: run wall s`] = seconds;
    f[`page ${label}: server CPU s`] = (server.cpuSeconds() ?? 0) - cpu0;
    f[`page ${label}: GET /api/agents p99 / worst ms`] = `${pct(lat, 99).toFixed(1)} / ${worst.toFixed(1)} (${lat.length} requests${failed ? `, ${failed} failed` : ''})`;
    ok &&= e?.status === 'succeeded' && seconds <= 15 && worst <= 250 && failed === 0;
  }
  f['pages: every run read its page within 15 s, API worst latency <= 250 ms'] = ok;
  return ok;
}

async function embeddings(f: Figures, server: ServerProcess): Promise<boolean> {
  // Warm the embedder so its load is not counted as the request's work.
  await fetch(`${server.url}/v1/embeddings`, { method: 'POST', headers: json, body: JSON.stringify({ model: 'use-lite-512', input: 'warm up' }) }).then((r) => r.arrayBuffer());

  const t0 = performance.now();
  const big = new AbortController();
  const bigTimer = setTimeout(() => big.abort(), 30_000);
  const r = await fetch(`${server.url}/v1/embeddings`, { method: 'POST', headers: json, body: JSON.stringify({ model: 'use-lite-512', input: 'x'.repeat(1_000_000) }), signal: big.signal })
    .then(async (res) => `${res.status} ${((await res.json()) as { error?: { message?: string } }).error?.message?.slice(0, 90) ?? ''}`)
    .catch(() => 'no answer within 30 s (client left)');
  clearTimeout(bigTimer);
  f['embeddings, one input of 1,000,000 characters: answer'] = r;
  f['embeddings, one input of 1,000,000 characters: wall s'] = (performance.now() - t0) / 1000;
  if (r.startsWith('no answer')) {
    const cpu = server.cpuSeconds() ?? 0;
    await sleep(10_000);
    f['embeddings, one input of 1,000,000 characters: server CPU s in the 10 s after the client left'] = (server.cpuSeconds() ?? 0) - cpu;
  }

  const texts = Array.from({ length: 1_200 }, (_, i) => `Passage ${i}: ${'bees tend the hive and carry pollen between the flowers of the valley '.repeat(14)}`);
  const client = new AbortController();
  const sent = fetch(`${server.url}/v1/embeddings`, { method: 'POST', headers: json, body: JSON.stringify({ model: 'use-lite-512', input: texts }), signal: client.signal }).catch(() => null);
  await sleep(3_000);
  client.abort();
  await sent;
  const left = server.cpuSeconds() ?? 0;
  await sleep(10_000);
  const after = (server.cpuSeconds() ?? 0) - left;
  f['embeddings, 1,200 texts abandoned after 3 s: server CPU s in the 10 s after the client left (target < 1)'] = after;
  const ok = after < 1 && r.startsWith('400');
  f['embeddings: over-limit input refused, abandoned work stopped'] = ok;
  return ok;
}

export async function hostileWeb(f: Figures): Promise<boolean> {
  const fake = await startFakeOpenAI();
  const web = await pageServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-hostile-web-'));
  const server = await startServer({
    dataDir,
    runner: 'node',
    env: {
      AGENT_DESK_API_KEY: KEY,
      AGENT_DESK_OPENAI_BASE_URL: fake.url,
      AGENT_DESK_OPENAI_API_KEY: 'sk-bench',
      AGENT_DESK_OLLAMA_AUTODETECT: '0',
      // The web tools are offered once a search backend is set; only fetch_page is called, on loopback.
      AGENT_DESK_SEARXNG_URL: web.url,
      AGENT_DESK_FETCH_ALLOW_PRIVATE: '1',
    },
    timeoutMs: 120_000,
  });
  try {
    const a = await pages(f, server, fake, web);
    const b = await embeddings(f, server);
    return a && b;
  } finally {
    server.kill();
    await server.exited;
    await fake.close();
    await web.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
