import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, chatBody, CHAT, withFake } from '../execution/helpers.js';
import { upload } from '../files/helpers.js';
import { FileRows } from '../../src-main/platform/modules/files/rows-store.js';
import { readStoredJson, readStoredList, setStoredJsonLog } from '../../src-main/platform/kernel/stored-json.js';

/**
 * Every JSON column the platform stores is read through one tolerant reader: one damaged value
 * (a bug, an older version, a hand edit, a hostile import) never fails a listing or an item; it
 * reads as empty and is logged once. Damage is planted straight into the database, column by
 * column, and every read that shows the row must still answer 200.
 */
describe('damaged stored JSON', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  const logged: { column: unknown; id: unknown }[] = [];

  beforeAll(async () => {
    env = await withFake({ reply: 'A plain answer.' });
    setStoredJsonLog((fields) => logged.push({ column: fields.column, id: fields.id }));
  });
  afterAll(async () => {
    setStoredJsonLog(null);
    await env?.close();
  });
  afterEach(() => {
    logged.length = 0;
  });

  const p = () => env.p;
  const run = (sql: string, ...args: unknown[]) => p().db.prepare(sql).run(...args);
  const ok = async (method: string, url: string, body?: unknown) => {
    const r = await call(p(), method, url, body === undefined ? {} : { body });
    expect(r.status, `${method} ${url}: ${r.text}`).toBe(200);
    return r.json;
  };

  it('an execution with bad steps, context, turns and answers still lists, reads, shows its session and continues', async () => {
    const first = await ok('POST', '/v1/responses', { model: 'gpt-4o-mini', input: 'Remember the word teapot.' });
    const id = Number(String(first.id).slice(5));
    run("UPDATE executions SET steps = '[{\"id\": 1,', context = '{\"memories\": 7', turns = '[1, 2', answers = 'nope', file_ids = '{' WHERE id = ?", id);

    const list = await ok('GET', '/api/agent-responses');
    expect(list.data.some((e: { id: number }) => e.id === id)).toBe(true);
    const item = await ok('GET', `/api/agent-responses/${id}`);
    expect(item).toMatchObject({ id, status: 'succeeded', output: 'A plain answer.', context: { memories: [], passages: [] } });
    expect(item.steps).toBeUndefined();
    await ok('GET', `/v1/responses/resp_${id}`);
    const session = await ok('GET', `/api/sessions/${id}`);
    expect(session.executions[0].answers).toBeUndefined();
    const md = await call(p(), 'GET', `/api/sessions/${id}/export?format=md`);
    expect(md.status, md.text).toBe(200);
    expect(md.text).toContain('A plain answer.');

    // A continuation of the damaged turn runs, with that turn's input and answer before it.
    const next = await ok('POST', '/v1/responses', { model: 'gpt-4o-mini', input: 'What was the word?', previous_response_id: first.id });
    expect(next.status).toBe('completed');
    const sent = env.fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body.messages as { role: string; content: string }[];
    expect(sent.slice(1)).toEqual([
      { role: 'user', content: 'Remember the word teapot.' },
      { role: 'assistant', content: 'A plain answer.' },
      { role: 'user', content: 'What was the word?' },
    ]);

    // Each damaged column was logged once, however often it was read.
    await ok('GET', `/api/agent-responses/${id}`);
    await ok('GET', '/api/agent-responses');
    const mine = logged.filter((l) => l.id === id).map((l) => l.column);
    expect(mine.sort()).toEqual(['executions.answers', 'executions.context', 'executions.file_ids', 'executions.steps', 'executions.turns']);
  });

  it('an execution whose steps are JSON of the wrong shape reads without them', async () => {
    const r = await ok('POST', `/api/agents/${CHAT}/execute`, { ...chatBody('Hello.'), wait_execution: true });
    const id = r.responses[0].id as number;
    run("UPDATE executions SET steps = '{\"not\": \"a list\"}', context = '[1]' WHERE id = ?", id);
    const item = await ok('GET', `/api/agent-responses/${id}`);
    expect(item.steps).toBeUndefined();
    expect(item.context).toEqual({ memories: [], passages: [] });
  });

  it('a schedule with bad answers and messages lists and reads', async () => {
    const c = await call(p(), 'POST', '/api/schedules', { body: { agent_id: CHAT, cron: '30 9 * * 1-5', timezone: 'UTC', answers: { temperature: '0.5', model: 'gpt-4o-mini', tools: 'no-tools' }, messages: [{ role: 'user', content: 'News?' }] } });
    expect(c.status, c.text).toBe(201);
    const created = c.json;
    const id = created.id as number;
    run("UPDATE schedules SET answers = '{', messages = '[{\"role\": 1}]' WHERE id = ?", id);
    const list = await ok('GET', '/api/schedules');
    const row = list.data.find((x: { id: number }) => x.id === id);
    expect(row).toMatchObject({ answers: {}, messages: [] });
  });

  it('an MCP server with bad args and always_tools lists', async () => {
    const c = await call(p(), 'POST', '/api/mcp-servers', { body: { name: 'Damaged', transport: 'stdio', command: process.execPath, args: ['-e', ''] } });
    expect(c.status, c.text).toBe(201);
    run("UPDATE mcp_servers SET args = 'x', always_tools = '[\"ok\", 3]' WHERE id = ?", c.json.id);
    const list = await ok('GET', '/api/mcp-servers');
    const row = (list.data ?? list).find((x: { id: number }) => x.id === c.json.id);
    expect(row).toMatchObject({ args: [], always_tools: ['ok'] });
  });

  it('a file with bad metadata, a webhook with bad events and a damaged setting read', async () => {
    const f = await upload(p(), 'notes.txt', 'Some notes.', { process: false });
    expect(f.status, f.text).toBe(200);
    run("UPDATE files SET metadata = '{\"pages\":' WHERE id = ?", f.json.id);
    expect((await ok('GET', `/api/files/${f.json.id}`)).metadata).toBeNull();

    const w = await call(p(), 'POST', `/api/agents/${CHAT}/webhooks`, { body: { url: 'http://127.0.0.1:9/hook' } });
    expect(w.status, w.text).toBe(201);
    run("UPDATE webhooks SET events = '[' WHERE id = ?", w.json.id);
    const hooks = await ok('GET', '/api/webhooks');
    expect(hooks.data.find((x: { id: number }) => x.id === w.json.id).events).toEqual(['execution.succeeded', 'execution.failed']);

    run("INSERT INTO settings(key, value, updated_at) VALUES ('retrieval.embedder', '{\"provider\":', 0) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    expect((await call(p(), 'GET', '/api/settings/embeddings')).status).toBe(200);
  });

  it('a job with a damaged payload does not stop the files query that looks into payloads', async () => {
    const f = await upload(p(), 'waiting.txt', 'Waiting.', { process: false });
    run("UPDATE files SET status = 'in_progress' WHERE id = ?", f.json.id);
    run("INSERT INTO jobs(kind, payload, state, run_at, attempts, max_attempts, created_at, updated_at) VALUES ('file.process', '{bad', 'pending', 0, 0, 1, 0, 0)");
    expect(() => new FileRows(p().db).orphansInProgress('file.process')).not.toThrow();
  });
});

describe('readStoredJson', () => {
  afterEach(() => setStoredJsonLog(null));

  it('reads good values, gives the fallback for nothing stored, and logs each damaged place once', () => {
    const seen: unknown[] = [];
    setStoredJsonLog((fields) => seen.push(fields.column));
    expect(readStoredJson('{"a":1}', { column: 't.c', id: 1 }, {})).toEqual({ a: 1 });
    expect(readStoredJson(null, { column: 't.c', id: 1 }, 'none')).toBe('none');
    expect(readStoredJson('', { column: 't.c', id: 1 }, 'none')).toBe('none');
    expect(seen).toEqual([]);
    for (let i = 0; i < 3; i++) expect(readStoredJson('{', { column: 't.c', id: 2 }, 'fallback')).toBe('fallback');
    expect(readStoredJson('[1]', { column: 't.d', id: 2 }, {}, (v) => !Array.isArray(v))).toEqual({});
    expect(readStoredList('[1, "a", 2]', { column: 't.e', id: 3 }, (v) => typeof v === 'number')).toEqual([1, 2]);
    expect(seen).toEqual(['t.c', 't.d', 't.e']);
  });
});
