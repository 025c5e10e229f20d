import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, withFake } from './helpers.js';
import { TINY_PNG } from '../fixtures/fake-openai.js';
import { readableText } from '../../src-main/platform/engine/tools/web.js';
import { limit } from '../fixtures/until.js';

/** A fake SearXNG (`/search?format=json`) and a web page, on 127.0.0.1. */
async function fakeWeb() {
  const queries: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/search') {
      queries.push(url.searchParams.get('q') ?? '');
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ results: [{ title: 'Bee facts', url: 'http://example.test/bees', content: 'Honey bees visit two million flowers per pound of honey.' }] }));
    }
    if (url.pathname === '/redirect') {
      res.writeHead(302, { location: '/page' });
      return res.end();
    }
    if (url.pathname === '/page') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html><head><title>Hives</title><script>var x=1</script></head><body><nav>menu</nav><main><h1>Hive care</h1><p>Inspect the hive every 7&nbsp;days.</p></main></body></html>');
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, queries, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('agent types', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  beforeAll(async () => {
    env = await withFake({ reply: 'A short summary.' });
  });
  afterAll(() => env.close());

  it('a text agent builds its prompt from its answers; input is the answers as JSON', async () => {
    const agents = (await call(env.p, 'GET', '/api/agents?q=summarizer')).json.data;
    const id = agents[0].id;
    const r = await call(env.p, 'POST', `/api/agents/${id}/execute`, { body: { answers: { model: 'gpt-4o', text: 'The meeting moved to Tuesday.', length: 'short' }, wait_execution: true } });
    expect(r.status).toBe(200);
    const e = r.json.responses[0];
    expect(e.status).toBe('succeeded');
    expect(e.output).toBe('A short summary.');
    expect(JSON.parse(e.input)).toEqual({ model: 'gpt-4o', text: 'The meeting moved to Tuesday.', length: 'short' });
    const prompt = env.fake.prompts().at(-1)!;
    expect(prompt[0].content).toMatch(/Summarise the text faithfully/);
    expect(prompt.at(-1).role).toBe('user');
    expect(prompt.at(-1).content).toContain('The meeting moved to Tuesday.');
    expect(prompt.at(-1).content).toContain('short');
  });

  it('a text agent with a required answer missing is 422', async () => {
    const id = (await call(env.p, 'GET', '/api/agents?q=summarizer')).json.data[0].id;
    const r = await call(env.p, 'POST', `/api/agents/${id}/execute`, { body: { model: 'gpt-4o', length: 'short' } });
    expect(r.status).toBe(422);
    expect(r.json.errors.text).toEqual(['The text field is required.']);
  });

  it('an image agent calls /v1/images/generations and stores the image as a file', async () => {
    const id = (await call(env.p, 'GET', '/api/agents?type=image')).json.data[0].id;
    const r = await call(env.p, 'POST', `/api/agents/${id}/execute`, { body: { model: 'gpt-image-1', prompt: 'a red bicycle', size: '1024x1024', wait_execution: true } });
    const e = r.json.responses[0];
    expect(e.status).toBe('succeeded');
    const req = env.fake.requests.filter((x) => x.path === '/v1/images/generations').at(-1)!;
    expect(req.body).toMatchObject({ model: 'gpt-image-1', size: '1024x1024' });
    expect(req.body.prompt).toContain('a red bicycle');
    const fileId = Number(/file_id: (\d+)/.exec(e.output)![1]);
    expect(e.output).toContain(`/api/files/${fileId}`);
    const file = env.p.services.files.get(1, fileId);
    expect(file.filename).toBe(`image-${e.id}.png`);
    expect(file.bytes).toBe(TINY_PNG.length);
  });

  it('a video agent fails clearly with unsupported', async () => {
    const agent = await call(env.p, 'POST', '/api/agents', { body: { template_id: 'video-script' } });
    const r = await call(env.p, 'POST', `/api/agents/${agent.json.id}/execute`, { body: { model: 'gpt-4o', topic: 'bees', duration: '30s', wait_execution: true } });
    expect(r.json.responses[0]).toMatchObject({ status: 'failed', output: '', error: { code: 'unsupported' } });
    expect(r.json.responses[0].error.message).toMatch(/Video agents/);
  });

  it('the internet tool without a search backend fails with tool_unavailable, before calling the model', async () => {
    const before = env.fake.requests.length;
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('news?', { tools: 'internet' }), wait_execution: true } });
    expect(r.json.responses[0]).toMatchObject({ status: 'failed', error: { code: 'tool_unavailable' } });
    expect(r.json.responses[0].error.message).toMatch(/AGENT_DESK_SEARXNG_URL/);
    expect(env.fake.requests.length).toBe(before);
  });
});

describe('tools: web search and page fetch as function calls', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  let web: Awaited<ReturnType<typeof fakeWeb>>;
  beforeAll(async () => {
    web = await fakeWeb();
    // The test's pages live on 127.0.0.1, which the page fetcher refuses unless allowed.
    env = await withFake({ reply: 'Bees are busy.' }, { AGENT_DESK_SEARXNG_URL: web.url, AGENT_DESK_FETCH_ALLOW_PRIVATE: '1' });
  });
  afterAll(async () => {
    await env.close();
    await web.close();
  });

  it('runs web_search through SearXNG (scoped to a website source) and gives the results back to the model', async () => {
    env.fake.set({ toolCalls: [{ name: 'web_search', arguments: '{"query":"how many flowers"}' }] });
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('How busy are bees?', { tools: 'wikipedia' }), wait_execution: true } });
    const e = r.json.responses[0];
    expect(e.status).toBe('succeeded');
    expect(e.output).toBe('Bees are busy.');
    expect(web.queries.at(-1)).toBe('how many flowers site:wikipedia.org');
    const chats = env.fake.requests.filter((x) => x.path === '/v1/chat/completions').slice(-2);
    expect(chats[0].body.tools.map((t: any) => t.function.name)).toEqual(['web_search', 'fetch_page']);
    const msgs = chats[1].body.messages;
    const call0 = msgs.find((m: any) => m.role === 'assistant' && m.tool_calls);
    expect(call0.tool_calls[0].function).toEqual({ name: 'web_search', arguments: '{"query":"how many flowers"}' });
    const tool = msgs.find((m: any) => m.role === 'tool');
    expect(tool.tool_call_id).toBe(call0.tool_calls[0].id);
    expect(tool.content).toContain('two million flowers');
  });

  it('runs fetch_page and gives back the readable text', async () => {
    env.fake.set({ toolCalls: [{ name: 'fetch_page', arguments: JSON.stringify({ url: `${web.url}/page` }) }] });
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('Hive care?', { tools: 'internet' }), wait_execution: true } });
    expect(r.json.responses[0].status).toBe('succeeded');
    const tool = env.fake.prompts().at(-1)!.find((m: any) => m.role === 'tool');
    expect(tool.content).toContain('Inspect the hive every 7 days.');
    expect(tool.content).not.toContain('var x');
    expect(tool.content).not.toContain('menu');
  });

  it('by default the page fetcher refuses loopback and private addresses; allowed, it follows redirects', async () => {
    const { fetchPage, isPrivateAddress } = await import('../../src-main/platform/engine/tools/web.js');
    const signal = AbortSignal.timeout(limit(5000));
    expect(await fetchPage(`${web.url}/page`, signal)).toMatch(/cannot be fetched/);
    expect(await fetchPage('http://localhost:9/x', signal)).toMatch(/cannot be fetched/);
    expect(await fetchPage('file:///etc/passwd', signal)).toMatch(/Only http\(s\)/);
    for (const ip of ['127.0.0.1', '10.1.2.3', '192.168.0.1', '172.20.0.1', '169.254.169.254', '::1', 'fd00::1', '::ffff:127.0.0.1', '0.0.0.0']) expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '172.32.0.1']) expect(isPrivateAddress(ip), ip).toBe(false);
    expect(await fetchPage(`${web.url}/redirect`, signal, { allowPrivate: true })).toContain('Inspect the hive every 7 days.');
  });

  it('readableText drops chrome and decodes entities', () => {
    const { title, text } = readableText('<title>T &amp; U</title><body><header>h</header><p>a&#39;b &lt;c&gt;</p><ul><li>one</li><li>two</li></ul></body>');
    expect(title).toBe('T & U');
    expect(text).toContain("a'b <c>");
    expect(text).toContain('- one');
    expect(text).not.toContain('h\n');
  });
});
