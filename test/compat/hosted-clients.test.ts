/**
 * What integrations written for the hosted platform (its Langflow components, the Pipedream app,
 * n8n community nodes, an MCP tool server) send, replayed request by request against Agent Desk,
 * each asserting what the client reads (CONTRACT.md "Compatibility with hosted clients").
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, withFake } from '../execution/helpers.js';
import { upload } from '../files/helpers.js';
import { tempDir } from '../api/helpers.js';
import { mountStatic } from '../../src-main/platform/transports/http/static.js';

const DEFAULT_MODEL = 'gpt-4o-mini';
const CHAT = 1;
const SUMMARIZER = 2;

describe('hosted clients, unchanged, against localhost', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  let uiRoot: string;
  const lastModelRequest = () => [...env.fake.requests].reverse().find((r) => r.path.endsWith('/chat/completions'))!;

  beforeAll(async () => {
    env = await withFake({ reply: 'Fake answer.' });
    // Browser mode's app page, so the tests can tell "the page" from the API's JSON (mounted before the first request).
    uiRoot = tempDir('agent-desk-compat-ui-');
    fs.writeFileSync(path.join(uiRoot, 'index.html'), '<!doctype html><title>Agent Desk</title>');
    mountStatic(env.p.app, { root: uiRoot });
    const saved = await call(env.p, 'PUT', '/api/settings/providers', { body: { default_model: DEFAULT_MODEL } });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await env.close();
    fs.rmSync(uiRoot, { recursive: true, force: true });
  });

  describe('execute bodies', () => {
    it('"agent default": model, temperature and tools left out run on the user\'s default model (Langflow, n8n)', async () => {
      const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { messages: [{ role: 'user', content: 'Hi there' }], wait_execution: true } });
      expect(r.status).toBe(200);
      expect(r.json.responses[0]).toMatchObject({ status: 'succeeded', output: 'Fake answer.' });
      const sent = lastModelRequest().body;
      expect(sent.model).toBe(DEFAULT_MODEL);
      expect(sent.temperature).toBe(0.75); // the Chat agent's temperature default (near 0.7)
    });

    it('a question default set on the agent wins over the first option', async () => {
      const agent = await call(env.p, 'GET', `/api/agents/${CHAT}`);
      const questions = agent.json.questions.map((q: any) => (q.name === 'temperature' ? { ...q, default: '0.25' } : q));
      const made = await call(env.p, 'POST', '/api/agents', { body: { title: 'Chat with defaults', type: 'chat', questions } });
      expect(made.status).toBe(201);
      expect(made.json.questions.find((q: any) => q.name === 'temperature').default).toBe('0.25');
      const r = await call(env.p, 'POST', `/api/agents/${made.json.id}/execute`, { body: { messages: [{ role: 'user', content: 'x' }], waitExecution: true } });
      expect(r.json.responses[0].status).toBe('succeeded');
      expect(lastModelRequest().body.temperature).toBe(0.25);
    });

    it("a summarizer's text stays required (422), its selects do not", async () => {
      const missing = await call(env.p, 'POST', `/api/agents/${SUMMARIZER}/execute`, { body: {} });
      expect(missing.status).toBe(422);
      expect(Object.keys(missing.json.errors)).toEqual(['text']);
      const ok = await call(env.p, 'POST', `/api/agents/${SUMMARIZER}/execute`, { body: { text: 'A long text.', wait_execution: true } });
      expect(ok.json.responses[0].status).toBe('succeeded');
      expect(JSON.parse(ok.json.responses[0].input)).toMatchObject({ text: 'A long text.', length: 'short' });
    });

    it('hosted model ids (tess-*) run on the default model', async () => {
      const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { model: 'tess-5', messages: [{ role: 'user', content: 'x' }], wait_execution: true } });
      expect(r.json.responses[0].status).toBe('succeeded');
      expect(lastModelRequest().body.model).toBe(DEFAULT_MODEL);
    });

    it('messages as a JSON string is parsed; any other string is one user message (Pipedream)', async () => {
      const asJson = JSON.stringify([{ role: 'user', content: 'first' }, { role: 'assistant', content: 'reply' }, { role: 'user', content: 'second' }]);
      const a = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { messages: asJson, wait_execution: true } });
      expect(a.json.responses[0]).toMatchObject({ status: 'succeeded', input: 'second' });
      expect(lastModelRequest().body.messages.slice(-3).map((m: any) => m.content)).toEqual(['first', 'reply', 'second']);
      const b = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { messages: 'Just a question?', wait_execution: true } });
      expect(b.json.responses[0]).toMatchObject({ status: 'succeeded', input: 'Just a question?' });
      expect(lastModelRequest().body.messages.at(-1)).toMatchObject({ role: 'user', content: 'Just a question?' });
    });

    it('root_id 0 or null starts a new session', async () => {
      for (const root_id of [0, null, '0']) {
        const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { root_id, messages: [{ role: 'user', content: 'new' }], wait_execution: true } });
        expect(r.status).toBe(200);
        const e = r.json.responses[0];
        expect(e.root_id).toBe(e.id);
      }
    });

    it('file_id (one id) is taken where file_ids is: execute and link', async () => {
      const up = await upload(env.p, 'notes.txt', 'The harbour opens at dawn.');
      expect(up.status).toBe(200);
      const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { file_id: up.json.id, messages: [{ role: 'user', content: 'When does the harbour open?' }] } });
      expect(r.status).toBe(200);
      const bad = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { file_id: 987654, messages: [{ role: 'user', content: 'x' }] } });
      expect(bad.status).toBe(422);
      const linked = await call(env.p, 'POST', `/api/agents/${SUMMARIZER}/files`, { body: { file_id: up.json.id } });
      expect(linked.status).toBe(200);
      expect(linked.json.files.map((f: any) => f.id)).toEqual([up.json.id]);
      expect(linked.json.files_count.total).toBe(1);
    });

    it('memory_collections limits the memories that enter the context', async () => {
      const work = (await call(env.p, 'POST', '/api/memory-collections', { body: { name: 'work' } })).json.collection;
      const home = (await call(env.p, 'POST', '/api/memory-collections', { body: { name: 'home' } })).json.collection;
      await call(env.p, 'POST', '/api/memories', { body: { memory: 'The kayak meeting is on Fridays at the office.', collection_id: work.id } });
      await call(env.p, 'POST', '/api/memories', { body: { memory: 'The kayak lives in the garage at home.', collection_id: home.id } });
      const ask = (extra: Record<string, unknown>) =>
        call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { messages: [{ role: 'user', content: 'Where is the kayak?' }], wait_execution: true, ...extra } });
      const all = await ask({});
      expect(all.json.responses[0].context.memories.map((m: any) => m.memory).sort()).toEqual(['The kayak lives in the garage at home.', 'The kayak meeting is on Fridays at the office.']);
      const onlyHome = await ask({ memory_collections: [home.id] });
      expect(onlyHome.json.responses[0].context.memories.map((m: any) => m.memory)).toEqual(['The kayak lives in the garage at home.']);
      expect(JSON.stringify(lastModelRequest().body.messages)).not.toContain('Fridays');
      const unknown = await ask({ memory_collections: [999999] });
      expect(unknown.status).toBe(422);
      expect(unknown.json.errors['memory_collections.0']).toEqual(['The selected memory_collections.0 is invalid.']);
    });
  });

  describe('listing and the older path family', () => {
    it('GET /api/agent-responses: the caller\'s executions, shape B, newest first, with filters', async () => {
      const first = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { messages: [{ role: 'user', content: 'one' }], wait_execution: true } });
      const root = first.json.responses[0].id;
      const second = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { root_id: root, messages: [{ role: 'user', content: 'two' }], wait_execution: true } });
      const page = await call(env.p, 'GET', '/api/agent-responses?per_page=2');
      expect(page.status).toBe(200);
      expect(page.json).toMatchObject({ current_page: 1, per_page: 2 });
      expect(page.json.last_page).toBeGreaterThan(1);
      expect(page.json.data[0].id).toBe(second.json.responses[0].id);
      expect(page.json.data[0]).toEqual((await call(env.p, 'GET', `/api/agent-responses/${second.json.responses[0].id}`)).json);
      const session = await call(env.p, 'GET', `/api/agent-responses?root_id=${root}&status=completed`);
      expect(session.json.data.map((e: any) => e.id)).toEqual([second.json.responses[0].id, root]);
      expect(session.json.total).toBe(2);
      const other = await call(env.p, 'GET', `/api/agent-responses?agent_id=${SUMMARIZER}`);
      expect(other.json.data.every((e: any) => e.template_id === SUMMARIZER)).toBe(true);
      expect((await call(env.p, 'GET', '/api/agent-responses?status=done')).status).toBe(422);
    });

    it('/api/templates, /api/templates/{id}, /api/templates/{id}/execute and /api/template-responses/{id} answer as the agents paths', async () => {
      const list = await call(env.p, 'GET', '/api/templates');
      expect(list.status).toBe(200);
      expect(list.json.data).toEqual((await call(env.p, 'GET', '/api/agents')).json.data);
      expect((await call(env.p, 'GET', `/api/templates/${CHAT}`)).json).toEqual((await call(env.p, 'GET', `/api/agents/${CHAT}`)).json);
      const run = await call(env.p, 'POST', `/api/templates/${CHAT}/execute`, { body: { messages: '[{"role":"user","content":"old path"}]', wait_execution: true } });
      expect(run.json).toMatchObject({ template_id: String(CHAT), responses: [{ status: 'succeeded', input: 'old path' }] });
      const id = run.json.responses[0].id;
      expect((await call(env.p, 'GET', `/api/template-responses/${id}`)).json).toEqual((await call(env.p, 'GET', `/api/agent-responses/${id}`)).json);
      expect((await call(env.p, 'GET', '/api/templates/999999')).json).toEqual({ message: 'Agent not found' });
      const doc = (await call(env.p, 'GET', '/api/openapi.json')).json;
      expect(doc.paths['/api/templates/{id}/execute'].post.deprecated).toBe(true);
    });
  });

  describe('the base URL without /api', () => {
    it('a bearer request to an API path without its prefix is served by the API', async () => {
      const agents = await call(env.p, 'GET', '/agents?per_page=5', { headers: { accept: '*/*' } });
      expect(agents.status).toBe(200);
      expect(agents.headers.get('content-type')).toMatch(/application\/json/);
      expect(agents.json.data.length).toBeGreaterThan(0);
      // Shape B links keep the URL the client used.
      expect(agents.json.first_page_url).toBe('http://127.0.0.1:8787/agents?page=1&per_page=5');
      const run = await call(env.p, 'POST', `/agents/${CHAT}/execute`, { body: { messages: [{ role: 'user', content: 'no prefix' }], wait_execution: true } });
      expect(run.json.responses[0].status).toBe('succeeded');
      expect((await call(env.p, 'GET', `/agent-responses/${run.json.responses[0].id}`)).json.output).toBe('Fake answer.');
    });

    it('a wrong key gets the JSON 401, not the page', async () => {
      const r = await call(env.p, 'GET', '/agents', { key: 'wrong-key-123456', headers: { accept: 'application/json' } });
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ message: 'Unauthenticated.' });
    });

    it('clients that do not accept HTML get JSON, never the app page; a browser still gets the page', async () => {
      const noKey = await call(env.p, 'GET', '/agents', { key: null, headers: { accept: 'application/json' } });
      expect(noKey.status).toBe(401);
      expect(noKey.json).toEqual({ message: 'Unauthenticated.' });
      const unknown = await call(env.p, 'GET', '/some/where', { key: null, headers: { accept: 'application/json' } });
      expect(unknown.status).toBe(404);
      expect(unknown.json).toEqual({ message: 'Not found.' });
      const browser = await call(env.p, 'GET', '/agents', { key: null, headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' } });
      expect(browser.status).toBe(200);
      expect(browser.text).toContain('<title>Agent Desk</title>');
      // Without a key, a client that admits anything (no Accept, */*) is not told apart from a browser.
      expect((await call(env.p, 'GET', '/agents', { key: null })).text).toContain('<title>Agent Desk</title>');
    });
  });

  describe('workspaces, collections, uploads', () => {
    it('x-workspace-id naming no workspace means the selected one; one that is not the user\'s is 403', async () => {
      const copied = await call(env.p, 'GET', '/api/files', { headers: { 'x-workspace-id': '48213' } });
      expect(copied.status).toBe(200);
      expect(copied.json.data).toEqual((await call(env.p, 'GET', '/api/files')).json.data);
      env.p.db.prepare("INSERT INTO workspaces(id, name, created_at) VALUES (7, 'Someone else', 0)").run();
      const theirs = await call(env.p, 'GET', '/api/files', { headers: { 'x-workspace-id': '7' } });
      expect(theirs.status).toBe(403);
      expect(theirs.json).toEqual({ message: expect.any(String) });
      const made = await call(env.p, 'POST', '/api/agents', { body: { title: 'In a copied workspace', type: 'chat' }, headers: { 'x-workspace-id': '48213' } });
      expect(made.status).toBe(201);
      expect(made.json.workspace_id).toBe(1);
    });

    it('deleting the default collection is 403 with a message naming it', async () => {
      await call(env.p, 'POST', '/api/memories', { body: { memory: 'goes to default' } });
      const cols = await call(env.p, 'GET', '/api/memory-collections?per_page=50');
      const def = cols.json.collections.find((c: any) => c.name === 'default');
      const r = await call(env.p, 'DELETE', `/api/memory-collections/${def.id}`);
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ message: 'The default collection cannot be deleted.' });
    });

    it('upload filenames keep their last path segment, with either separator', async () => {
      for (const name of ['../../etc/évil näme.txt', '..\\..\\etc\\évil näme.txt', 'C:\\Users\\me\\évil näme.txt']) {
        const r = await upload(env.p, name, `bytes of ${name}`);
        expect(r.status).toBe(200);
        expect(r.json.filename).toBe('évil näme.txt');
      }
    });

    it('the same bytes uploaded again are the same stored file', async () => {
      const a = await upload(env.p, 'report.txt', 'Quarterly numbers: 42.');
      const b = await upload(env.p, 'report-copy.txt', 'Quarterly numbers: 42.');
      const c = await upload(env.p, 'report.txt', 'Quarterly numbers: 43.');
      // The extension decides how a file is read: the same bytes as .md are another file.
      const d = await upload(env.p, 'report.md', 'Quarterly numbers: 42.');
      expect(b.json.id).toBe(a.json.id);
      expect(c.json.id).not.toBe(a.json.id);
      expect(d.json.id).not.toBe(a.json.id);
      expect(d.json.filename).toBe('report.md');
      const stored = fs.readdirSync(path.join(env.p.dir, 'files')).filter((n) => /^\d+$/.test(n));
      expect(stored.filter((n) => Number(n) === a.json.id)).toHaveLength(1);
      expect(fs.readdirSync(path.join(env.p.dir, 'files', 'tmp'))).toEqual([]);
    });
  });
});

describe('Accept as HTTP reads it', () => {
  it('admits HTML only for no header, text/html, xhtml, text/* or */* (not at q=0)', async () => {
    const { acceptsHtml } = await import('../../src-main/platform/transports/http/hosted-paths.js');
    expect(acceptsHtml(undefined)).toBe(true);
    expect(acceptsHtml('*/*')).toBe(true);
    expect(acceptsHtml('application/json, text/plain, */*')).toBe(true);
    expect(acceptsHtml('text/html;q=0.9')).toBe(true);
    expect(acceptsHtml('application/json')).toBe(false);
    expect(acceptsHtml('application/json, text/event-stream')).toBe(false);
    expect(acceptsHtml('text/html;q=0, application/json')).toBe(false);
  });
});
