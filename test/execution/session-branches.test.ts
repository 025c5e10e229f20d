/** ext branches (parent_id / alternative_of), PATCH /api/sessions/{id}, `q` on the list, and what text and image agents send the model. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, withFake } from './helpers.js';
import { expectSession, expectSessionDetail } from '../api/spec-shapes.js';

describe('session branches', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  beforeAll(async () => {
    // The reply names the last user message, so each answer can be told apart.
    env = await withFake({ tokens: (body: any) => [`answer to ${body.messages.filter((m: any) => m.role === 'user').at(-1).content}`] });
  });
  afterAll(async () => env?.close());

  const turn = async (content: string, extra: Record<string, unknown> = {}) => {
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody(content, extra), wait_execution: true } });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return r.json.responses[0];
  };
  const lastPrompt = () => env.fake.prompts().at(-1)!.filter((m: any) => m.role !== 'system').map((m: any) => `${m.role}:${typeof m.content === 'string' ? m.content : m.content.map((p: any) => p.text).join('')}`);

  it('regenerates beside an answer and edits a message: alternatives share a parent, each sees only its own branch', async () => {
    const a = await turn('Q1');
    const b = await turn('Q2', { root_id: a.id });
    expect(lastPrompt()).toEqual(['user:Q1', 'assistant:answer to Q1', 'user:Q2']);

    // Regenerate Q2: same session, same parent (a); the model never sees the first answer to Q2.
    const b2 = await turn('Q2', { root_id: a.id, alternative_of: b.id });
    expect(b2.root_id).toBe(a.id);
    expect(lastPrompt()).toEqual(['user:Q1', 'assistant:answer to Q1', 'user:Q2']);

    // Edit Q2 into Q2' and resend: a third alternative.
    const b3 = await turn("Q2'", { alternative_of: b.id });
    expect(lastPrompt()).toEqual(['user:Q1', 'assistant:answer to Q1', "user:Q2'"]);

    // Continue the edited branch by default (latest), and an older branch by parent_id.
    await turn('Q3', { root_id: a.id });
    expect(lastPrompt()).toEqual(['user:Q1', 'assistant:answer to Q1', "user:Q2'", "assistant:answer to Q2'", 'user:Q3']);
    await turn('Q3 on the first', { parent_id: b.id });
    expect(lastPrompt()).toEqual(['user:Q1', 'assistant:answer to Q1', 'user:Q2', 'assistant:answer to Q2', 'user:Q3 on the first']);

    // Editing the first message branches at the root: nothing before it.
    const a2 = await turn('Q1 edited', { alternative_of: a.id });
    expect(a2.root_id).toBe(a.id);
    expect(lastPrompt()).toEqual(['user:Q1 edited']);

    const d = (await call(env.p, 'GET', `/api/sessions/${a.id}`)).json;
    expectSessionDetail(d);
    const parent = Object.fromEntries(d.executions.map((e: any) => [e.input, e.parent_id]));
    expect(parent).toEqual({ Q1: null, Q2: a.id, "Q2'": a.id, Q3: b3.id, 'Q3 on the first': b.id, 'Q1 edited': null });
    expect(d.executions.filter((e: any) => e.input === 'Q2').map((e: any) => e.id)).toEqual([b.id, b2.id]);
    expect(d.turns).toBe(7);
    // Still one session in the list.
    expect((await call(env.p, 'GET', '/api/sessions')).json.data.filter((s: any) => s.id === a.id)).toHaveLength(1);
  });

  it('refuses branch ids that are not the caller\'s, do not belong to root_id, or are both given, with 422', async () => {
    const a = await turn('one');
    const other = await turn('two');
    const cases: [Record<string, unknown>, string][] = [
      [{ alternative_of: 999999 }, 'alternative_of'],
      [{ parent_id: 'x' }, 'parent_id'],
      [{ root_id: a.id, parent_id: other.id }, 'parent_id'],
      [{ parent_id: a.id, alternative_of: a.id }, 'alternative_of'],
    ];
    for (const [extra, field] of cases) {
      const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('x', extra), wait_execution: true } });
      expect(r.status, JSON.stringify(extra)).toBe(422);
      expect(Object.keys(r.json.errors), JSON.stringify(extra)).toContain(field);
    }
  });

  it('renames a session (one line, trimmed), keeps the title after more turns; 422 on an empty title, 404 on another id', async () => {
    const a = await turn('Plan a trip');
    const r = await call(env.p, 'PATCH', `/api/sessions/${a.id}`, { body: { title: '  Summer\n trip  ' } });
    expect(r.status).toBe(200);
    // The renamed session answers in the session shape.
    expectSession(r.json);
    expect(r.json).toMatchObject({ id: a.id, title: 'Summer trip', turns: 1 });
    await turn('more', { root_id: a.id });
    expect((await call(env.p, 'GET', `/api/sessions/${a.id}`)).json.title).toBe('Summer trip');
    for (const body of [{ title: '   ' }, {}, { title: 5 }]) expect((await call(env.p, 'PATCH', `/api/sessions/${a.id}`, { body })).status, JSON.stringify(body)).toBe(422);
    expect((await call(env.p, 'PATCH', '/api/sessions/999999', { body: { title: 'x' } })).status).toBe(404);
  });

  it('searches sessions by title, message or answer (LIKE wildcards taken literally)', async () => {
    const a = await turn('Where do penguins live?');
    await turn('unrelated question');
    const found = async (q: string) => (await call(env.p, 'GET', `/api/sessions?q=${encodeURIComponent(q)}&per_page=100`)).json.data.map((s: any) => s.id);
    expect(await found('PENGUINS')).toEqual([a.id]);
    expect(await found('answer to Where')).toContain(a.id);
    await call(env.p, 'PATCH', `/api/sessions/${a.id}`, { body: { title: 'Birds 100%' } });
    expect(await found('100%')).toEqual([a.id]);
    expect(await found('_00')).toEqual([]);
    expect((await call(env.p, 'GET', `/api/sessions?q=${'x'.repeat(201)}`)).status).toBe(422);
  });

  it("a text agent's answers reach the model even when a message is sent beside them; an image prompt is the user's words only", async () => {
    const templates = (await call(env.p, 'GET', '/api/resources?per_page=100')).json.data as any[];
    const fromTemplate = async (title: string) => {
      const made = await call(env.p, 'POST', '/api/agents', { body: { template_id: templates.find((t) => t.title === title).id } });
      expect(made.status, JSON.stringify(made.json)).toBeLessThan(300);
      return made.json;
    };
    const summarizer = await fromTemplate('Summarizer');
    const image = await fromTemplate('Logo Concepts');
    const answers = Object.fromEntries(summarizer.questions.filter((q: any) => q.type === 'select').map((q: any) => [q.name, q.options[0]]));
    const r = await call(env.p, 'POST', `/api/agents/${summarizer.id}/execute`, {
      body: { answers: { ...answers, model: 'gpt-4o-mini', text: 'The quick brown fox jumps over the lazy dog.' }, messages: [{ role: 'user', content: 'Keep it short' }], wait_execution: true },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const sent = lastPrompt().join('\n');
    expect(sent).toContain('The quick brown fox jumps over the lazy dog.');
    expect(sent).toContain('Keep it short');

    const style = image.questions.find((q: any) => q.name === 'style').options[0];
    const size = image.questions.find((q: any) => q.name === 'size').options[0];
    const model = image.questions.find((q: any) => q.name === 'model').options.find((m: string) => /dall-e|gpt-image/.test(m)) ?? 'gpt-image-1';
    const img = await call(env.p, 'POST', `/api/agents/${image.id}/execute`, { body: { answers: { model, prompt: 'Acme Bakery', style, size }, wait_execution: true } });
    expect(img.status, JSON.stringify(img.json)).toBe(200);
    const gen = env.fake.requests.filter((q) => q.path.endsWith('/images/generations')).at(-1);
    expect(gen, JSON.stringify(img.json)).toBeTruthy();
    expect(gen!.body.prompt).toBe(`${image.instructions}\n\nAcme Bakery\n\n${style}`);
    expect(gen!.body.prompt).not.toContain(image.questions.find((q: any) => q.name === 'prompt').description);
  });
});
