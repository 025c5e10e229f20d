/**
 * ext sessions people keep (CONTRACT.md "Sessions"): PATCH pinned/archived/instructions/options,
 * the list's filters, search folding case and accents both ways, a session's own instructions
 * and options reaching the model, export as Markdown and JSON, and compare (sibling branches).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, poll, withFake } from './helpers.js';
import { expectSession, expectSessionDetail, expectShapeB } from '../api/spec-shapes.js';
import { openDatabase } from '../../src-main/platform/db/connection.js';
import { migrate } from '../../src-main/platform/db/migrate.js';
import { migrations } from '../../src-main/platform/db/migrations/index.js';
import { createPlatform } from '../../src-main/platform/platform.js';
import { KEY, tempDir } from '../api/helpers.js';

const SEARCH_MIGRATION = migrations.find((m) => m.name === 'session settings and accent-folded session search')!.version;

describe('session settings, search, export and compare', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  beforeAll(async () => {
    // Each model says who it is, so a compare's columns can be told apart.
    env = await withFake({ tokens: (body: any) => [`Answer `, `from ${body.model}`, ' [1].'], delayMs: 1 });
  });
  afterAll(async () => env?.close());

  const turn = async (content: string, extra: Record<string, unknown> = {}) =>
    (await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody(content, extra), wait_execution: true } })).json.responses[0];
  const patch = (id: number, body: unknown) => call(env.p, 'PATCH', `/api/sessions/${id}`, { body });
  const list = async (qs = '') => (await call(env.p, 'GET', `/api/sessions${qs}`)).json;
  const lastRequest = () => env.fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body;

  let a: any;
  let b: any;
  let c: any;
  it('PATCH pins, archives and stores instructions and options; the list filters by them', async () => {
    a = await turn('Plano de manutenção do carro');
    b = await turn('REVISÃO GERAL do texto');
    c = await turn('Just a chat');
    expect((await list()).data.map((s: any) => s.id)).toEqual([c.id, b.id, a.id]);

    const pinned = await patch(a.id, { pinned: true });
    expect(pinned.status).toBe(200);
    expectSession(pinned.json);
    expect(pinned.json).toMatchObject({ id: a.id, pinned: true, archived: false, instructions: null, options: {} });
    expect((await patch(b.id, { archived: true })).json).toMatchObject({ archived: true, pinned: false });

    // Newest activity first whatever is pinned (the contract's order); archived still listed unless asked not to be.
    expect((await list()).data.map((s: any) => s.id)).toEqual([c.id, b.id, a.id]);
    const active = await list('?archived=false');
    expectShapeB(active);
    expect(active.data.map((s: any) => s.id)).toEqual([c.id, a.id]);
    expect((await list('?archived=true')).data.map((s: any) => s.id)).toEqual([b.id]);
    expect((await list('?pinned=1')).data.map((s: any) => s.id)).toEqual([a.id]);
    expect((await list('?pinned=0&archived=0')).data.map((s: any) => s.id)).toEqual([c.id]);

    const set = await patch(c.id, { instructions: 'Answer in haiku.', options: { temperature: 0.7, max_tokens: 300, top_p: 0.9 }, title: 'Poems' });
    expect(set.json).toMatchObject({ title: 'Poems', instructions: 'Answer in haiku.', options: { temperature: 0.7, max_tokens: 300, top_p: 0.9 } });
    // Fields left out stay; options are replaced whole; null clears.
    expect((await patch(c.id, { pinned: true })).json).toMatchObject({ pinned: true, instructions: 'Answer in haiku.', options: { max_tokens: 300 } });
    expect((await patch(c.id, { options: { temperature: 1.2 } })).json.options).toEqual({ temperature: 1.2 });
    expect((await patch(c.id, { pinned: false, archived: false })).json).toMatchObject({ pinned: false, archived: false });
    const detail = (await call(env.p, 'GET', `/api/sessions/${c.id}`)).json;
    expectSessionDetail(detail);
    expect(detail).toMatchObject({ instructions: 'Answer in haiku.', options: { temperature: 1.2 } });
    expect((await patch(c.id, { instructions: null, options: null })).json).toMatchObject({ instructions: null, options: {} });
  });

  it('refuses every bad PATCH with a 422 in the contract body, and unknown sessions with 404', async () => {
    const cases: [unknown, string, string][] = [
      [{}, 'title', 'The title field is required when none of pinned / archived / instructions / options are present.'],
      [{ pinned: 'yes' }, 'pinned', 'The pinned field must be true or false.'],
      [{ archived: 1 }, 'archived', 'The archived field must be true or false.'],
      [{ instructions: 'x'.repeat(20_001) }, 'instructions', 'The instructions field must not be greater than 20000 characters.'],
      [{ instructions: 42 }, 'instructions', 'The instructions field must be a string.'],
      [{ options: { temperature: 3 } }, 'options.temperature', 'The options.temperature field must not be greater than 2.'],
      [{ options: { temperature: -1 } }, 'options.temperature', 'The options.temperature field must be at least 0.'],
      [{ options: { max_tokens: 1.5 } }, 'options.max_tokens', 'The options.max tokens field must be an integer.'],
      [{ options: { max_tokens: 0 } }, 'options.max_tokens', 'The options.max tokens field must be at least 1.'],
      [{ options: { top_p: 2 } }, 'options.top_p', 'The options.top p field must not be greater than 1.'],
      [{ options: { seed: 1 } }, 'options', 'The options field has unknown keys: seed.'],
      [{ options: 'hot' }, 'options', 'The options field must be an object.'],
      [{ title: '   ' }, 'title', 'The title field must not be empty.'],
    ];
    for (const [body, field, message] of cases) {
      const r = await patch(c.id, body);
      expect(r.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(r.json).toEqual({ message, errors: { [field]: [message] } });
    }
    expect((await patch(c.id, { instructions: 'x'.repeat(20_000) })).status).toBe(200);
    await patch(c.id, { instructions: null });
    const bad = await call(env.p, 'PATCH', `/api/sessions/${c.id}`, { raw: '{"pinned":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    for (const raw of ['[]', 'null', '"pinned"', '42']) {
      const r = await call(env.p, 'PATCH', `/api/sessions/${c.id}`, { raw, headers: { 'content-type': 'application/json' } });
      expect(r.status, raw).toBe(422);
      expect(r.json.errors, raw).toBeTypeOf('object');
    }
    expect((await patch(999_999, { pinned: true })).json).toEqual({ message: 'Session not found' });
    for (const q of ['archived=maybe', 'pinned=2']) expect((await call(env.p, 'GET', `/api/sessions?${q}`)).status, q).toBe(422);
  });

  it('search folds case and accents both ways, over titles and message text', async () => {
    const ids = async (q: string) => (await list(`?q=${encodeURIComponent(q)}`)).data.map((s: any) => s.id).sort();
    expect(await ids('manutencao')).toEqual([a.id]);
    expect(await ids('MANUTENÇÃO')).toEqual([a.id]);
    expect(await ids('revisão')).toEqual([b.id]);
    expect(await ids('Revisao geral')).toEqual([b.id]);
    // Answers are searched too (the fake's text), and a substring inside a word.
    expect(await ids('from gpt-4o')).toEqual([a.id, b.id, c.id].sort());
    expect(await ids('tenç')).toEqual([a.id]);
    // A title people gave, with accents, found without them.
    await patch(c.id, { title: 'Poemas de verão' });
    expect(await ids('VERAO')).toEqual([c.id]);
    // Archived sessions stay searchable; short queries still match (ASCII case folded).
    expect(await ids('revis')).toEqual([b.id]);
    expect(await ids('ca')).toContain(a.id);
    expect(await ids('nothing like this')).toEqual([]);
    // A quote in the query is text, not FTS syntax; odd text is searched, never a 500.
    for (const q of ['"a" OR b*', '"""', 'NEAR(a b)', 'abc\u0000def', '🙂🙂🙂', '\\%_', 'col:umn', ' '.repeat(5), 'x'.repeat(200), 'ção']) {
      const r = await call(env.p, 'GET', `/api/sessions?q=${encodeURIComponent(q)}`);
      expect(r.status, JSON.stringify(q)).toBe(200);
    }
    expect((await call(env.p, 'GET', `/api/sessions?q=${'x'.repeat(201)}`)).status).toBe(422);
    // Text with a NUL in it is stored and indexed like any other.
    const nul = await turn('zebra\u0000crossing at night');
    expect(nul.status).toBe('succeeded');
    expect(await ids('crossing at night')).toEqual([nul.id]);
    await patch(nul.id, { title: 'Título\u0000com nulo' });
    expect(await ids('titulo')).toEqual([nul.id]);
  });

  it("sends the session's instructions after the agent's and its options over the agent's answers", async () => {
    await patch(c.id, { instructions: 'Always answer in Portuguese.', options: { temperature: 0.3, max_tokens: 123, top_p: 0.8 } });
    const next = await turn('and now?', { root_id: c.id, temperature: '0.5' });
    expect(next.status).toBe('succeeded');
    const sent = lastRequest();
    const system = sent.messages.find((m: any) => m.role === 'system' || m.role === 'developer');
    expect(system.content).toContain('Always answer in Portuguese.');
    const agentInstructions = (await call(env.p, 'GET', `/api/agents/${CHAT}`)).json.instructions as string;
    if (agentInstructions.trim()) expect(system.content.indexOf(agentInstructions.trim())).toBeLessThan(system.content.indexOf('Always answer in Portuguese.'));
    expect(sent).toMatchObject({ temperature: 0.3, max_tokens: 123, top_p: 0.8 });

    // Another session is untouched by them.
    await turn('elsewhere', { root_id: a.id });
    const other = lastRequest();
    expect(JSON.stringify(other.messages)).not.toContain('Always answer in Portuguese.');
    expect(other.temperature).toBe(0.5);
    expect(other.top_p).toBeUndefined();
    expect(other.max_tokens).toBeUndefined();
  });

  it('exports Markdown (the chosen path, each answer with its model, citations as footnotes) and JSON (every branch)', async () => {
    // Two answers to the first turn (a regenerate), then a turn after the second: the path goes through it.
    const s = await turn('Qual é o plano?');
    const alt = (await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('Qual é o plano?', { model: 'gpt-5' }), alternative_of: s.id, wait_execution: true } })).json.responses[0];
    const last = await turn('E depois?', { parent_id: alt.id });
    // The answer cites passage [1]: give that run a passage, as retrieval would have.
    const context = { memories: [], passages: [{ file_id: 3, filename: 'plano.pdf', text: 'O plano   tem três fases.', n: 1, position: 4, cited: true }] };
    env.p.db.prepare('UPDATE executions SET context = ? WHERE id = ?').run(JSON.stringify(context), last.id);

    const md = await call(env.p, 'GET', `/api/sessions/${s.id}/export?format=md`);
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(md.headers.get('content-disposition')).toBe(`attachment; filename="Qual e o plano.md"; filename*=UTF-8''${encodeURIComponent('Qual é o plano.md')}`);
    const text = md.text;
    expect(text.startsWith('# Qual é o plano?\n')).toBe(true);
    expect(text).toContain('## You\n\nQual é o plano?');
    // An answer with no passages keeps its brackets as written.
    expect(text).toContain('## Assistant (gpt-5)\n\nAnswer from gpt-5 [1].');
    expect(text).toContain('## You\n\nE depois?');
    expect(text).toContain('## Assistant (gpt-4o-mini)\n\nAnswer from gpt-4o-mini [^2.1].');
    expect(text).toContain('[^2.1]: plano.pdf, passage 5: "O plano tem três fases."');
    // The regenerated-away answer is not on the chosen path.
    expect(text.match(/## Assistant/g)).toHaveLength(2);

    const json = await call(env.p, 'GET', `/api/sessions/${s.id}/export?format=json`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(json.headers.get('content-disposition')).toMatch(/^attachment; filename="Qual e o plano\.json"/);
    const doc = JSON.parse(json.text);
    expect(doc.format).toBe('agent-desk-session');
    expect(doc.executions.map((e: any) => [e.id, e.parent_id, e.model])).toEqual([
      [s.id, null, 'gpt-4o-mini'],
      [alt.id, null, 'gpt-5'],
      [last.id, alt.id, 'gpt-4o-mini'],
    ]);
    // Default format is Markdown; a bad one is 422; an unknown session 404.
    expect((await call(env.p, 'GET', `/api/sessions/${s.id}/export`)).headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const bad = await call(env.p, 'GET', `/api/sessions/${s.id}/export?format=pdf`);
    expect(bad.status).toBe(422);
    expect(bad.json.errors.format).toEqual(['The selected format is invalid.']);
    expect((await call(env.p, 'GET', '/api/sessions/999999/export')).json).toEqual({ message: 'Session not found' });
  });

  it('compare: each model answers the same turn as a sibling branch, started at once; continuing from one makes it the path', async () => {
    const first = await turn('Start here');
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/compare`, {
      body: { ...chatBody('Which is better?', { root_id: first.id }), models: ['gpt-4o-mini', 'gpt-5'] },
    });
    expect(r.status).toBe(200);
    expect(r.json.template_id).toBe(String(CHAT));
    const [x, y] = r.json.responses;
    expect(r.json.responses).toHaveLength(2);
    expect([x.status, y.status]).toEqual(['starting', 'starting']);
    const done = await Promise.all([x, y].map((e) => poll(env.p, e.id, (j) => j.status === 'succeeded')));
    expect(done.map((e) => e.output)).toEqual(['Answer from gpt-4o-mini [1].', 'Answer from gpt-5 [1].']);
    expect(done.map((e) => e.model)).toEqual(['gpt-4o-mini', 'gpt-5']);

    const detail = (await call(env.p, 'GET', `/api/sessions/${first.id}`)).json;
    expectSessionDetail(detail);
    const byId = new Map(detail.executions.map((e: any) => [e.id, e]));
    expect((byId.get(x.id) as any).parent_id).toBe(first.id);
    expect((byId.get(y.id) as any).parent_id).toBe(first.id);
    expect((byId.get(y.id) as any).answers.model).toBe('gpt-5');
    // Both model requests carried the same conversation.
    const sent = env.fake.requests.filter((q) => q.path === '/v1/chat/completions').slice(-2);
    expect(sent.map((q) => q.body.model).sort()).toEqual(['gpt-4o-mini', 'gpt-5']);
    expect(sent[0].body.messages.filter((m: any) => m.role !== 'system')).toEqual(sent[1].body.messages.filter((m: any) => m.role !== 'system'));

    // Continue with the second model's answer: it is on the chosen path the export follows.
    const cont = await turn('Go on', { parent_id: y.id, model: 'gpt-5' });
    const contents = lastRequest().messages.map((m: any) => m.content);
    expect(contents.slice(contents.indexOf('Which is better?'))).toEqual(['Which is better?', 'Answer from gpt-5 [1].', 'Go on']);
    expect(cont.root_id).toBe(first.id);
    const md = (await call(env.p, 'GET', `/api/sessions/${first.id}/export`)).text;
    expect(md).toContain('## Assistant (gpt-5)\n\nAnswer from gpt-5 [1].\n\n## You\n\nGo on');

    // A compare may start a new session: its answers are siblings of the first turn.
    const fresh = (await call(env.p, 'POST', `/api/agents/${CHAT}/compare`, { body: { ...chatBody('New one'), models: ['gpt-5', 'gpt-4o-mini', 'gpt-4o'] } })).json.responses;
    expect(fresh).toHaveLength(3);
    expect(new Set(fresh.map((e: any) => e.root_id))).toEqual(new Set([fresh[0].id]));
    await Promise.all(fresh.map((e: any) => poll(env.p, e.id, (j) => ['succeeded', 'failed'].includes(j.status))));
    const freshDetail = (await call(env.p, 'GET', `/api/sessions/${fresh[0].id}`)).json;
    expect(freshDetail.executions.map((e: any) => e.parent_id)).toEqual([null, null, null]);
  });

  it('refuses bad compare bodies with 422 before starting anything', async () => {
    const before = (await list()).total;
    const completions = () => env.fake.requests.filter((q) => q.path === '/v1/chat/completions').length;
    const requestsBefore = completions();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ models: ['gpt-5'] }, 'models', 'The models field must have at least 2 items.'],
      [{ models: ['a', 'b', 'c', 'd', 'e'] }, 'models', 'The models field must not have more than 4 items.'],
      [{ models: ['gpt-5', 'gpt-5'] }, 'models.1', 'The models.1 field has a duplicate value.'],
      [{ models: 'gpt-5' }, 'models', 'The models field must be an array.'],
      [{}, 'models', 'The models field is required.'],
      [{ models: ['gpt-5', ''] }, 'models.1', 'The models.1 field is required.'],
      [{ models: ['gpt-5', 'no-such-model'] }, 'models.1', 'The selected models.1 is invalid.'],
      [{ models: ['gpt-5', 'gpt-4o'], stream: true }, 'stream', 'Compare answers at once; follow each execution with GET /api/agent-responses/{id}/stream.'],
      [{ models: ['gpt-5', 'gpt-4o'], alternative_of: 1 }, 'alternative_of', 'Compare answers a new user turn; give parent_id or root_id, not alternative_of.'],
      [{ models: ['gpt-5', 'gpt-4o'], root_id: 999999 }, 'root_id', 'The selected root id is invalid.'],
    ];
    for (const [extra, field, message] of cases) {
      const r = await call(env.p, 'POST', `/api/agents/${CHAT}/compare`, { body: { ...chatBody('x'), ...extra } });
      expect(r.status, JSON.stringify(extra)).toBe(422);
      expect(r.json.errors[field], JSON.stringify(extra)).toEqual([message]);
      expect(r.json.message).toBe(message);
      expect((await list()).total, JSON.stringify(extra)).toBe(before);
    }
    for (const raw of ['[]', 'null', '"x"']) {
      const r = await call(env.p, 'POST', `/api/agents/${CHAT}/compare`, { raw, headers: { 'content-type': 'application/json' } });
      expect(r.status, raw).toBe(422);
    }
    const noMessages = await call(env.p, 'POST', `/api/agents/${CHAT}/compare`, { body: { models: ['gpt-5', 'gpt-4o'], temperature: '0.5', tools: 'no-tools' } });
    expect(noMessages.json.errors).toEqual({ messages: ['The messages field is required.'] });
    expect((await call(env.p, 'POST', '/api/agents/999999/compare', { body: { ...chatBody('x'), models: ['gpt-5', 'gpt-4o'] } })).json).toEqual({ message: 'Agent not found' });
    expect((await list()).total).toBe(before);
    expect(completions()).toBe(requestsBefore);
  });

  it('the operations are in the OpenAPI document', async () => {
    const doc = (await call(env.p, 'GET', '/api/openapi.json')).json;
    expect(doc.paths['/api/agents/{id}/compare'].post.requestBody.content['application/json'].schema).toBeTruthy();
    expect(doc.paths['/api/sessions/{id}/export'].get).toBeTruthy();
    expect(doc.paths['/api/sessions/{id}'].patch).toBeTruthy();
  });
});

describe('the accent-folded session index on a database made by the old schema', () => {
  it('indexes conversations written before the migration, and keeps the index current after it', async () => {
    const dir = tempDir('agent-desk-session-search-');
    try {
      const db = openDatabase(dir);
      migrate(db, { target: SEARCH_MIGRATION - 1 });
      db.exec(`
        INSERT INTO users(id, name, selected_workspace_id, created_at) VALUES (1, 'Me', 1, 1700000000000000);
        INSERT INTO workspaces(id, name, created_at) VALUES (1, 'Personal', 1700000000000000);
        INSERT INTO workspace_members(workspace_id, user_id, role) VALUES (1, 1, 'owner');
        INSERT INTO executions(id, agent_id, user_id, root_id, status, input, output, created_at, updated_at) VALUES
          (1, 1, 1, 1, 'succeeded', 'Como fazer a manutenção?', 'Troque o óleo.', 1700000000000001, 1700000000000001),
          (2, 1, 1, 1, 'succeeded', 'E a REVISÃO?', 'Anual.', 1700000000000002, 1700000000000002),
          (3, 1, 1, 3, 'succeeded', 'Other topic', 'Fine.', 1700000000000003, 1700000000000003);
        INSERT INTO session_titles(user_id, root_id, title) VALUES (1, 3, 'Ação de GRAÇAS');
      `);
      db.close();
      const p = createPlatform({ envApiKey: KEY, dataDir: dir, env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
      try {
        const ids = async (q: string) => (await call(p, 'GET', `/api/sessions?q=${encodeURIComponent(q)}`)).json.data.map((s: any) => s.id);
        expect(await ids('manutencao')).toEqual([1]);
        expect(await ids('revisão')).toEqual([1]);
        expect(await ids('OLEO')).toEqual([1]);
        expect(await ids('acao de gracas')).toEqual([3]);
        // Old sessions have no settings: shown unpinned, with none.
        expect((await call(p, 'GET', '/api/sessions/1')).json).toMatchObject({ pinned: false, archived: false, instructions: null, options: {} });
        // Rows written after it are indexed by the triggers: a finished one, a deleted one, a renamed title
        // (a running one by its first progress write, not when it is created: search-index-start.test.ts).
        p.db.prepare(`INSERT INTO executions(id, agent_id, user_id, root_id, status, input, output, created_at, updated_at) VALUES (4, 1, 1, 4, 'running', 'Pergunta nova', '', 1700000000000004, 1700000000000004)`).run();
        p.db.prepare(`UPDATE executions SET status = 'succeeded', output = 'Resposta com acentuação' WHERE id = 4`).run();
        expect(await ids('PERGUNTA')).toEqual([4]);
        expect(await ids('acentuacao')).toEqual([4]);
        await call(p, 'PATCH', '/api/sessions/3', { body: { title: 'Férias' } });
        expect(await ids('gracas')).toEqual([]);
        expect(await ids('ferias')).toEqual([3]);
        expect((await call(p, 'DELETE', '/api/sessions/4')).status).toBe(200);
        expect(await ids('acentuacao')).toEqual([]);
        expect(p.db.prepare('SELECT count(*) AS n FROM session_search WHERE rowid = 4').get()).toEqual({ n: 0 });
      } finally {
        await p.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
