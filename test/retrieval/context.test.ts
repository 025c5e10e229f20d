/**
 * What the model gets from files, end to end through a fake OpenAI-compatible provider on
 * loopback: "summarize the attached file" (no word in common with the file) puts the small
 * file's whole text in context, in order; a later turn of the conversation still sees the file
 * without attaching it again; passages are numbered and the answer's [n] marks them cited in the
 * execution's ext `context`; a large file gives its best passages, not all of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, withFake } from '../execution/helpers.js';
import { addTextFile } from './helpers.js';
import { limit } from '../fixtures/until.js';

const SMALL = [
  'Meeting notes, 3 March. Attendees: Priya, Tomasz and Lena.',
  'Decision: the spring release moves to 14 April because the installer for Windows is not signed yet.',
  'Action: Lena contacts the certificate vendor; Tomasz writes the migration guide.',
].join('\n\n');

describe('context from files', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  let small = 0;
  let large = 0;
  let todo = 0;

  beforeAll(async () => {
    // The fake cites the second passage it was given (and a number that was never given).
    env = await withFake({ tokens: () => ['The release moved to 14 April [2]; see also [9].'] });
    small = await addTextFile(env.p, 'notes.txt', SMALL);
    const sections = Array.from({ length: 300 }, (_, i) =>
      i === 137 ? 'The lighthouse keeper logs the fog signal every night at eleven.' : `Section ${i}: routine inventory of shelf ${i}, boxes counted and labelled, nothing unusual found in aisle ${i % 7}.`,
    );
    large = await addTextFile(env.p, 'inventory.txt', sections.join('\n\n'));
    todo = await addTextFile(env.p, 'todo.txt', 'Buy stamps. Renew the parking permit before Friday.');
  }, limit(120_000));
  afterAll(() => env.close());

  const exec = (body: object) => call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...body, wait_execution: true } });
  const systemOf = (prompt: any[]) => prompt.find((m: any) => m.role === 'system')?.content ?? '';

  it('"summarize the attached file" puts the whole small file in context, in order, numbered', async () => {
    const r = await exec(chatBody('Summarize the attached file', { file_ids: [small] }));
    const e = r.json.responses[0];
    expect(e.status).toBe('succeeded');
    const system = systemOf(env.fake.prompts().at(-1)!);
    const at = [system.indexOf('Meeting notes, 3 March'), system.indexOf('Decision: the spring release'), system.indexOf('Action: Lena contacts')];
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(system).toMatch(/cite its number in square brackets/);
    expect(system).toMatch(/\[1\] notes\.txt/);

    const stored = (await call(env.p, 'GET', `/api/agent-responses/${e.id}`)).json;
    const passages = stored.context.passages;
    expect(passages.map((p: any) => p.text).join('\n')).toContain('Tomasz writes the migration guide');
    expect(passages.map((p: any) => p.n)).toEqual(passages.map((_: unknown, i: number) => i + 1));
    expect(passages.every((p: any) => p.file_id === small && typeof p.position === 'number')).toBe(true);
  });

  it("marks the passages the answer cited as [n] (and only those)", async () => {
    const r = await exec(chatBody('Summarize the attached files', { file_ids: [small, todo] }));
    const ctx = (await call(env.p, 'GET', `/api/agent-responses/${r.json.responses[0].id}`)).json.context;
    const cited = ctx.passages.filter((p: any) => p.cited);
    expect(ctx.passages.map((p: any) => p.file_id)).toEqual([small, todo]);
    expect(cited.map((p: any) => p.n)).toEqual([2]);
    expect(cited[0].file_id).toBe(todo);
    expect(ctx.passages.filter((p: any) => !p.cited).length).toBe(ctx.passages.length - 1);
  });

  it('a large file gives its best passages with their scores, not its whole text', async () => {
    const r = await exec(chatBody('When is the fog signal logged by the lighthouse keeper?', { file_ids: [large] }));
    const ctx = (await call(env.p, 'GET', `/api/agent-responses/${r.json.responses[0].id}`)).json.context;
    expect(ctx.passages.length).toBeGreaterThan(0);
    expect(ctx.passages.length).toBeLessThan(40);
    expect(ctx.passages[0].text).toContain('lighthouse keeper');
    // Its ordinal in the file: the passage the file viewer opens.
    const page = (await call(env.p, 'GET', `/api/files/${large}/passages?limit=200`)).json;
    const stored = page.passages.find((x: any) => x.text === ctx.passages[0].text);
    expect(stored.ordinal).toBe(ctx.passages[0].position);
    expect(ctx.passages[0].position).toBeGreaterThan(0);
    expect(ctx.passages[0].scores.bm25).toBeGreaterThan(0);
    expect(ctx.passages[0].scores.fused).toBeGreaterThan(0);
  });

  it("keeps a conversation's attachments available to its later turns", async () => {
    const first = (await exec(chatBody('Summarize the attached file', { file_ids: [small] }))).json.responses[0];
    const second = (await exec(chatBody('Who writes the guide?', { root_id: first.id }))).json.responses[0];
    expect(second.status).toBe('succeeded');
    expect(systemOf(env.fake.prompts().at(-1)!)).toContain('Tomasz writes the migration guide');
    const ctx = (await call(env.p, 'GET', `/api/agent-responses/${second.id}`)).json.context;
    expect(ctx.passages.some((p: any) => p.file_id === small)).toBe(true);
  });
});
