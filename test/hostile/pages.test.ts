/**
 * Hostile web pages. A page is whatever a stranger's server sends: 400 KB of `<!--` kept the API's
 * event loop busy for 22 s when tags were stripped with regexes on it. Pages are now read by a
 * tokenizer in the page reader process: the API answers while a page is being read, a page that
 * overstays is stopped, and a read nobody waits for ends.
 *
 * No clock is asserted on. The API test holds the page reader (SIGSTOP) so that "while the page is
 * read" is a window the test controls, then counts the short requests answered inside it: on the
 * loop, a parse leaves no such window (no request is answered until it ends).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, withFake } from '../execution/helpers.js';
import { KEY } from '../api/helpers.js';
import { listen, type RunningServer } from '../../src-main/platform/transports/http/server.js';
import { readableText } from '../../src-main/platform/engine/tools/web.js';
import { MAX_PAGE_CHARS, PageUnreadable, readPage } from '../../src-main/platform/ingest/pages/read.js';
import { limit, until } from '../fixtures/until.js';

/** 400 KB of unclosed comment openers, then the words a reader should find (the browser shows none: it is all one comment). */
const COMMENTS = '<!--'.repeat(100_000);
/** A page whose text is followed by an unclosed run of comment openers (22 s of regex backtracking). */
const HOSTILE = `<html><title>Calm</title><body><p>The hive is calm today.</p>${COMMENTS}`;
/** Shapes that made the regexes backtrack, each followed by text. */
const NESTED = `<html><title>Calm</title><body>${'<nav>'.repeat(20_000)}${'</nav>'.repeat(20_000)}${'</x>'.repeat(20_000)}<main><p>${'<b>'.repeat(40_000)}The hive is calm today.</p></main>`;

/** The page reader processes of this test process (the bundled entry is named after it). */
function pageReaders(): number[] {
  const mark = `page-reader-${process.pid}.mjs`;
  return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(mark);
    } catch {
      return false;
    }
  }).map(Number);
}

function signalAll(pids: number[], sig: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {}
  }
}

async function pageServer() {
  const served = { hostile: 0 };
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    if (req.url === '/small') return res.end('<html><title>Small</title><body><p>A small page.</p></body></html>');
    res.on('finish', () => served.hostile++);
    res.end(req.url === '/comments' ? COMMENTS : HOSTILE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, served, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('a hostile page does not stall the API', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  let web: Awaited<ReturnType<typeof pageServer>>;
  let api: RunningServer;
  let held: number[] = [];
  beforeAll(async () => {
    web = await pageServer();
    // A search backend must be set for the web tools to be offered; only fetch_page is called.
    env = await withFake({ reply: 'Read.' }, { AGENT_DESK_SEARXNG_URL: web.url, AGENT_DESK_FETCH_ALLOW_PRIVATE: '1' });
    api = await listen(env.p, { host: '127.0.0.1', port: 0 });
  }, limit(60_000));
  afterAll(async () => {
    signalAll(held, 'SIGCONT');
    await api?.close();
    await env?.close();
    await web?.close();
  });

  const chats = () => env.fake.requests.filter((r) => r.path === '/v1/chat/completions').length;
  const short = async () => {
    const res = await fetch(`${api.url}/api/agents?per_page=1`, { headers: { authorization: `Bearer ${KEY}` } });
    await res.text();
    return res.status;
  };

  it('answers short requests while a run reads the page, and the run then gets its text', async () => {
    // A first page starts the page reader (if pages are read in one).
    env.fake.set({ toolCalls: [{ name: 'fetch_page', arguments: JSON.stringify({ url: `${web.url}/small` }) }] });
    const first = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('Read it', { tools: 'internet' }), wait_execution: true } });
    expect(first.json.responses[0], JSON.stringify(first.json.responses[0].error)).toMatchObject({ status: 'succeeded' });

    // Hold the reader: the hostile page stays "being read" until the test lets it go.
    held = pageReaders();
    signalAll(held, 'SIGSTOP');
    env.fake.set({ toolCalls: [{ name: 'fetch_page', arguments: JSON.stringify({ url: `${web.url}/hostile` }) }] });
    const before = chats();
    const started = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('Read the hostile page', { tools: 'internet' }) } });
    const id = started.json.responses?.[0]?.id ?? started.json.id;
    await until('the hostile page served', () => web.served.hostile === 1);

    // Short requests over HTTP, one after another, each noting whether the run had already
    // handed the page's text to the model (the read was over) when it was answered.
    const readOver: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      expect(await short()).toBe(200);
      readOver.push(chats() > before + 1);
    }
    expect(readOver).toEqual([false, false, false, false, false]);

    signalAll(held, 'SIGCONT');
    held = [];
    const done = await until('the run to end', async () => {
      const r = await call(env.p, 'GET', `/api/agent-responses/${id}`);
      return ['succeeded', 'failed'].includes(r.json?.status) ? r.json : null;
    });
    expect(done.status).toBe('succeeded');
    const tool = env.fake.prompts().at(-1)!.find((m: any) => m.role === 'tool');
    expect(tool.content).toContain('Calm');
    expect(tool.content).toContain('The hive is calm today.');
  });
});

describe('readable text of hostile markup', () => {
  it('reads through shapes that made the regexes backtrack', () => {
    expect(readableText(HOSTILE)).toEqual({ title: 'Calm', text: 'The hive is calm today.' });
    expect(readableText(NESTED)).toEqual({ title: 'Calm', text: 'The hive is calm today.' });
    // An unclosed comment hides the rest, as in a browser.
    expect(readableText(`<p>Before</p>${COMMENTS}<p>after</p>`).text).toBe('Before');
    expect(readableText(`${'<title>'.repeat(50_000)}x`).text).toBe('');
    expect(readableText(`<p>${'<'.repeat(100_000)}</p>`, 10).text).toBe('<'.repeat(10));
  });

  it('keeps at most the characters asked for, whatever the page holds', () => {
    const big = `<main>${'<p>word word word</p>'.repeat(50_000)}</main>`;
    expect(readableText(big, 5_000).text.length).toBe(5_000);
    expect(readableText(`${' '.repeat(1_000_000)}<p>late words</p>`, 100).text).toBe('late words');
  });
});

describe('the page reader process', () => {
  const alive = (pid: number) => fs.existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));

  it('stops a page that overstays its time, with a sentence, and the next page gets a new reader', async () => {
    expect((await readPage('<p>warm</p>')).text).toBe('warm');
    const [pid] = pageReaders();
    expect(pid).toBeGreaterThan(0);
    // A reader stuck on a page (held here): its time runs out and it is killed.
    process.kill(pid, 'SIGSTOP');
    const err = await readPage('<p>stuck</p>', { timeoutMs: 300 }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(PageUnreadable);
    expect((err as Error).message).toMatch(/took longer than/);
    await until('the stuck reader to be gone', () => !alive(pid));
    expect((await readPage('<p>next</p>')).text).toBe('next');
  });

  it('ends the work of a read whose caller left', async () => {
    expect((await readPage('<p>warm</p>')).text).toBe('warm');
    const [pid] = pageReaders();
    process.kill(pid, 'SIGSTOP');
    const caller = new AbortController();
    const reading = readPage(`<p>${'word '.repeat(10_000)}</p>`, { signal: caller.signal }).catch((e: Error) => e);
    // The page is handed over within the microtasks after the call (the reader is already running).
    await new Promise((r) => setImmediate(r));
    caller.abort();
    expect(await reading).toBeInstanceOf(Error);
    await until('the reader to be gone with the work nobody waits for', () => !alive(pid));
  });

  it('reads at most MAX_PAGE_CHARS of a page', async () => {
    const html = `<p>start</p>${' '.repeat(MAX_PAGE_CHARS)}<p>past the limit</p>`;
    const r = await readPage(html, { maxChars: 1_000 });
    expect(r.text).toBe('start');
  });
});
