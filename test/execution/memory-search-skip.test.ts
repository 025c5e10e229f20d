/**
 * A run searches memories only when there is something to find: a user with no memory in the
 * collections the run reads makes no search (and no query embedding), and the first memory another
 * connection adds (another process on the same data dir) is found by the very next run.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHAT, call, chatBody, withFake } from './helpers.js';
import { openDatabase } from '../../src-main/platform/db/connection.js';

describe('memory search at the start of a run', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  let searches: ReturnType<typeof vi.spyOn>;
  beforeAll(async () => {
    env = await withFake({ reply: 'Noted.' });
    searches = vi.spyOn(env.p.services.retrieval, 'relevantMemories');
  });
  afterAll(() => env.close());

  const run = async (text: string, extra: Record<string, unknown> = {}) => {
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody(text, extra), wait_execution: true } });
    const e = r.json.responses[0];
    expect(e.status).toBe('succeeded');
    return (await call(env.p, 'GET', `/api/agent-responses/${e.id}`)).json;
  };

  it('makes no search for a user without memories', async () => {
    const e = await run('How are my bees doing in Lyon?');
    expect(e.context.memories).toEqual([]);
    expect(searches).not.toHaveBeenCalled();
  });

  it('finds the first memory another connection adds, on the next run', async () => {
    const other = openDatabase(env.p.dir);
    try {
      other.exec(`INSERT INTO memory_collections(user_id, name, created_at, updated_at) VALUES (1, 'default', 1, 1)`);
      other.exec(`INSERT INTO memories(user_id, collection_id, memory, created_at, updated_at)
        SELECT 1, id, 'The user keeps bees in a garden in Lyon.', 1, 1 FROM memory_collections WHERE user_id = 1 AND name = 'default'`);
    } finally {
      other.close();
    }
    const e = await run('How are my bees doing in Lyon?');
    expect(e.context.memories.map((m: any) => m.memory)).toEqual(['The user keeps bees in a garden in Lyon.']);
    expect(searches).toHaveBeenCalledTimes(1);
  });

  it('makes no search when the collections a run reads hold no memory, and searches again once one is in context', async () => {
    const col = await call(env.p, 'POST', '/api/memory-collections', { body: { name: 'Empty' } });
    expect(col.status).toBe(200);
    searches.mockClear();
    await run('bees?', { memory_collections: [col.json.collection.id] });
    expect(searches).not.toHaveBeenCalled();
    // The only memory's collection out of context: a run naming no collections has nothing to find.
    const cols = (await call(env.p, 'GET', '/api/memory-collections')).json.collections as any[];
    const def = cols.find((c) => c.name === 'default');
    expect((await call(env.p, 'PUT', `/api/memory-collections/${def.id}`, { body: { name: 'default', in_context: false } })).status).toBe(200);
    await run('How are my bees doing in Lyon?');
    expect(searches).not.toHaveBeenCalled();
    expect((await call(env.p, 'PUT', `/api/memory-collections/${def.id}`, { body: { name: 'default', in_context: true } })).status).toBe(200);
    const e = await run('How are my bees doing in Lyon?');
    expect(e.context.memories).toHaveLength(1);
    expect(searches).toHaveBeenCalledTimes(1);
  });
});
