import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { CHAT, chatBody, withFake } from '../execution/helpers.js';
import { exportTar, importTar } from '../crash/data-safety-helpers.js';

/**
 * What an archive brings stays out of every run's context: a memory of an imported collection is not
 * sent to the model by the built-in Chat agent (which names no `memory_collections`) until a run
 * names that collection or the person turns the collection on; the user's own memories still are.
 */
describe('imported memories stay out of context until attached', () => {
  const src = makePlatform({ env: {} });
  let env: Awaited<ReturnType<typeof withFake>>;
  let imported: { id: number; name: string };

  beforeAll(async () => {
    env = await withFake({ reply: 'Noted.' });
    expect((await call(src, 'POST', '/api/memories', { body: { memory: 'My bank PIN is 4321.' } })).status).toBe(200);
    expect((await call(env.p, 'POST', '/api/memories', { body: { memory: 'My bank is the small one in Porto.' } })).status).toBe(200);
    const r = await importTar(env.p, await exportTar(src));
    expect(r.status, r.text).toBe(200);
    expect(r.json.notes).toContain('The memory went into a new collection, "Imported export", not into your default collection; conversations leave it out until you turn that collection on.');
    const cols = (await call(env.p, 'GET', '/api/memory-collections')).json.collections;
    imported = cols.find((c: any) => c.name === 'Imported export');
    expect(imported).toMatchObject({ in_context: false, display_name: 'Imported export' });
    expect(cols.find((c: any) => c.name === 'default')).toMatchObject({ in_context: true });
  });
  afterAll(async () => {
    await env.close();
    await closePlatform(src);
  });

  /** Runs the Chat agent; what the fake provider was sent (every message's text) and the execution. */
  const ask = async (extra: Record<string, unknown> = {}) => {
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('What is my bank PIN?'), ...extra, wait_execution: true } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.responses[0].status).toBe('succeeded');
    return { sent: JSON.stringify(env.fake.prompts().at(-1)), execution: r.json.responses[0] };
  };

  it('the Chat agent does not send an imported memory to the provider; the user’s own memory still goes', async () => {
    const { sent, execution } = await ask();
    expect(sent).not.toContain('4321');
    expect(sent).toContain('small one in Porto');
    const got = await call(env.p, 'GET', `/api/agent-responses/${execution.id}`);
    expect(got.json.context.memories.map((m: any) => m.memory)).toEqual(['My bank is the small one in Porto.']);
  });

  it('a run that names the imported collection in memory_collections gets its memory', async () => {
    const { sent } = await ask({ memory_collections: [imported.id] });
    expect(sent).toContain('My bank PIN is 4321.');
    expect(sent).not.toContain('small one in Porto');
  });

  it('turning the collection on (ext in_context) lets runs that name none use it; turning it off again leaves it out', async () => {
    const on = await call(env.p, 'PUT', `/api/memory-collections/${imported.id}`, { body: { name: imported.name, in_context: true } });
    expect(on.status, on.text).toBe(200);
    expect(on.json.collection).toEqual({ id: imported.id, user_id: 1, name: imported.name });
    const listed = async () => (await call(env.p, 'GET', '/api/memory-collections')).json.collections.find((c: any) => c.id === imported.id);
    expect(await listed()).toMatchObject({ in_context: true });
    expect((await ask()).sent).toContain('My bank PIN is 4321.');
    const off = await call(env.p, 'PUT', `/api/memory-collections/${imported.id}`, { body: { name: imported.name, in_context: false } });
    expect(off.status, off.text).toBe(200);
    expect(await listed()).toMatchObject({ in_context: false });
    expect((await ask()).sent).not.toContain('4321');
    // A rename alone keeps the setting.
    const renamed = await call(env.p, 'PUT', `/api/memory-collections/${imported.id}`, { body: { name: 'From the old laptop' } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(await listed()).toMatchObject({ name: 'From the old laptop', in_context: false });
    const bad = await call(env.p, 'PUT', `/api/memory-collections/${imported.id}`, { body: { name: 'x', in_context: 'yes' } });
    expect(bad.status).toBe(422);
  });
});
