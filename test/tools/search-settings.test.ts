/**
 * Web search set up in Settings: the SearXNG address and the Brave key are saved through the
 * providers settings (the key write-only), each backend can be tried with one real search before
 * or after saving, and a run that wants web search without one says where to set it up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../api/helpers.js';
import { expect422 } from '../api/spec-shapes.js';
import { CHAT, chatBody, withFake } from '../execution/helpers.js';
import { startRecordingServer, type RecordingServer } from '../fixtures/fake-http.js';
import { closedPort } from '../webhooks/receiver.js';
import { lastToolResult } from './helpers.js';

let env: Awaited<ReturnType<typeof withFake>>;
/** a SearXNG instance as far as the platform can tell: /search?format=json */
let searx: RecordingServer;
/** a SearXNG whose JSON output is off (its default): 403 */
let noJson: RecordingServer;
/** what the fake SearXNG was asked, in order */
const queries: string[] = [];
const p = () => env.p;

beforeAll(async () => {
  searx = await startRecordingServer(({ url, json }) => {
    if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json') return json(404, {});
    const q = url.searchParams.get('q') ?? '';
    queries.push(q);
    json(200, { results: [1, 2, 3, 4].map((i) => ({ title: `${q} result ${i}`, url: `http://example.test/${i}`, content: `About ${q}.` })) });
  });
  noJson = await startRecordingServer(({ res }) => {
    res.writeHead(403, { 'content-type': 'text/html' });
    res.end('<h1>403 Forbidden</h1>');
  });
  env = await withFake({});
});
afterAll(async () => {
  await env.close();
  await searx.close();
  await noJson.close();
});

const settings = async () => (await call(p(), 'GET', '/api/settings/providers')).json.search;
const saveSearch = (search: Record<string, unknown>) => call(p(), 'PUT', '/api/settings/providers', { body: { search } });
const test = (body: Record<string, unknown>) => call(p(), 'POST', '/api/settings/providers/search/test', { body });

describe('web search in Settings (ext)', () => {
  it('nothing set up: a run with web search fails before the model is asked, pointing to Settings → Web search', async () => {
    expect(await settings()).toEqual({ searxng_url: null, brave_has_api_key: false, configured: false });
    const before = env.fake.requests.length;
    const r = await call(p(), 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('news?', { tools: 'internet' }), wait_execution: true } });
    expect(r.json.responses[0]).toMatchObject({ status: 'failed', error: { code: 'tool_unavailable' } });
    expect(r.json.responses[0].error.message).toBe(
      'Web search is not set up. Add a SearXNG address or a Brave Search key in Settings → Web search (or set AGENT_DESK_SEARXNG_URL), or answer without web search.',
    );
    expect(env.fake.requests.length).toBe(before);
  });

  it('tries an address before it is saved: one real search, its results counted, nothing saved', async () => {
    const before = searx.requests.length;
    const r = await test({ backend: 'searxng', searxng_url: searx.origin });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ ok: true, results: 4, titles: ['weather result 1', 'weather result 2', 'weather result 3'], error: null });
    expect(r.json.latency_ms).toEqual(expect.any(Number));
    expect(searx.requests.length).toBe(before + 1);
    expect(queries.at(-1)).toBe('weather');
    expect((await settings()).configured).toBe(false);
  });

  it('a backend that refuses or is not there: ok false with a sentence that says what to check', async () => {
    const refused = await test({ backend: 'searxng', searxng_url: noJson.origin });
    expect(refused.json).toMatchObject({ ok: false, results: 0, titles: [] });
    expect(refused.json.error).toBe('The SearXNG search answered 403 (is its JSON format enabled?).');
    const port = await closedPort();
    const nobody = await test({ backend: 'searxng', searxng_url: `http://127.0.0.1:${port}` });
    expect(nobody.json).toMatchObject({ ok: false, results: 0 });
    expect(nobody.json.error).toBe(`Nothing answered at 127.0.0.1:${port}. Check that it is running and the address is right.`);
  });

  it('refuses what cannot be tried with the contract 422', async () => {
    expect422(await test({ backend: 'searxng' }), 'searxng_url', 'The searxng url field is required when no SearXNG address is saved.');
    expect422(await test({ backend: 'brave' }), 'brave_api_key', 'The brave api key field is required when no Brave key is saved.');
    expect422(await test({ backend: 'google' }), 'backend');
    expect422(await test({ backend: 'searxng', searxng_url: 'ftp://127.0.0.1/' }), 'searxng_url');
    expect422(await saveSearch({ searxng_url: 'not an address' }), 'search.searxng_url');
  });

  it('the Brave key is write-only: saved, kept when the address changes, never shown, removed by null', async () => {
    const saved = await saveSearch({ brave_api_key: 'BSA-secret-key-123' });
    expect(saved.status).toBe(200);
    expect(saved.text).not.toContain('BSA-secret-key-123');
    expect(await settings()).toEqual({ searxng_url: null, brave_has_api_key: true, configured: true });
    await saveSearch({ searxng_url: searx.origin });
    expect(await settings()).toEqual({ searxng_url: searx.origin, brave_has_api_key: true, configured: true });
    expect((await call(p(), 'GET', '/api/settings/providers')).text).not.toContain('BSA-secret-key-123');
    await saveSearch({ brave_api_key: null });
    expect(await settings()).toEqual({ searxng_url: searx.origin, brave_has_api_key: false, configured: true });
  });

  it('saved: the test uses the saved address, and a chat run with web search reaches it', async () => {
    await saveSearch({ searxng_url: searx.origin });
    expect((await test({ backend: 'searxng' })).json).toMatchObject({ ok: true, results: 4 });
    env.fake.set({
      toolCalls: (body: any) => (lastToolResult(body) === null ? [{ name: 'web_search', arguments: JSON.stringify({ query: 'bees in winter' }) }] : null),
      tokens: (body: any) => ['Found: ', lastToolResult(body) ?? 'nothing'],
    });
    const r = await call(p(), 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('What do bees do in winter?', { tools: 'internet' }), wait_execution: true } });
    const e = r.json.responses[0];
    expect(e.status).toBe('succeeded');
    expect(e.steps).toEqual([expect.objectContaining({ tool: 'web_search', status: 'succeeded' })]);
    expect(e.output).toContain('bees in winter result 1');
    expect(queries.at(-1)).toBe('bees in winter');
  });
});
