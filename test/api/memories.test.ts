import { afterAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from './helpers.js';
import { expect422, expectCollection, expectMemory, expectMessage, expectShapeC, MESSAGES, sorted } from './spec-shapes.js';

describe('memories', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));

  it('POST /api/memories: {message, memory}; the default collection when collection_id is omitted', async () => {
    const r = await call(p, 'POST', '/api/memories', { body: { memory: 'I prefer metric units.' } });
    expect(r.status).toBe(200);
    expect(sorted(r.json)).toEqual(['memory', 'message']);
    expect(r.json.message).toBe(MESSAGES.createMemory);
    expectMemory(r.json.memory);
    expect(r.json.memory).toMatchObject({ user_id: 1, memory: 'I prefer metric units.', credits: 0 });
    const cols = (await call(p, 'GET', '/api/memory-collections')).json.collections;
    expect(cols.find((c: any) => c.id === r.json.memory.collection_id)?.name).toBe('default');
  });

  it('accepts exactly 32000 characters and refuses 32001 with 422', async () => {
    const ok = await call(p, 'POST', '/api/memories', { body: { memory: 'é'.repeat(32000) } });
    expect(ok.status).toBe(200);
    expect(ok.json.memory.memory).toHaveLength(32000);
    const before = (await call(p, 'GET', '/api/memories')).json.meta.total;
    expect422(await call(p, 'POST', '/api/memories', { body: { memory: 'x'.repeat(32001) } }), 'memory', 'The memory field must not be greater than 32000 characters.');
    expect((await call(p, 'GET', '/api/memories')).json.meta.total).toBe(before);
  });

  it('refuses missing and wrongly typed fields with 422', async () => {
    expect422(await call(p, 'POST', '/api/memories', { body: {} }), 'memory', 'The memory field is required.');
    expect422(await call(p, 'POST', '/api/memories', { body: { memory: '' } }), 'memory', 'The memory field is required.');
    expect422(await call(p, 'POST', '/api/memories', { body: { memory: 42 } }), 'memory', 'The memory field must be a string.');
    expect422(await call(p, 'POST', '/api/memories', { body: { memory: ['a'] } }), 'memory', 'The memory field must be a string.');
    expect422(await call(p, 'POST', '/api/memories', { body: { memory: 'x', collection_id: 'one' } }), 'collection_id');
    expect422(await call(p, 'POST', '/api/memories', { body: { memory: 'x', collection_id: 1.5 } }), 'collection_id', 'The collection id field must be an integer.');
    expect422(await call(p, 'POST', '/api/memories', { body: { memory: 'x', collection_id: 999999 } }), 'collection_id', 'The selected collection id is invalid.');
    expect422(await call(p, 'POST', '/api/memories', { body: 'text' }), 'input', 'The input field must be an object.');
  });

  it('GET /api/memories: shape C, newest first, page math, collection_id filter', async () => {
    const col = (await call(p, 'POST', '/api/memory-collections', { body: { name: 'Work' } })).json.collection;
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push((await call(p, 'POST', '/api/memories', { body: { memory: `note ${i}`, collection_id: col.id } })).json.memory.id);
    const total = (await call(p, 'GET', '/api/memories?per_page=50')).json.meta.total;

    const first = await call(p, 'GET', '/api/memories');
    expectShapeC(first.json, 'memories', MESSAGES.listMemories);
    expect(first.json.memories).toHaveLength(10); // default per_page 10
    first.json.memories.forEach((m: any) => expectMemory(m));
    expect(first.json.meta).toEqual({ current_page: 1, last_page: Math.ceil(total / 10), total });
    expect(first.json.memories.slice(0, 12).map((m: any) => m.id)).toEqual([...ids].reverse().slice(0, 10));

    const inCol = await call(p, 'GET', `/api/memories?collection_id=${col.id}&per_page=5&page=3`);
    expect(inCol.json.meta).toEqual({ current_page: 3, last_page: 3, total: 12 });
    expect(inCol.json.memories.map((m: any) => m.id)).toEqual([ids[1], ids[0]]);
    const past = await call(p, 'GET', `/api/memories?collection_id=${col.id}&per_page=5&page=4`);
    expect(past.json).toEqual({ message: MESSAGES.listMemories, memories: [], meta: { current_page: 4, last_page: 3, total: 12 } });

    expect422(await call(p, 'GET', '/api/memories?page=0'), 'page', 'The page field must be at least 1.');
    expect422(await call(p, 'GET', '/api/memories?per_page=0'), 'per_page', 'The per page field must be at least 1.');
    expect422(await call(p, 'GET', '/api/memories?per_page=51'), 'per_page', 'The per page field must not be greater than 50.');
    expect((await call(p, 'GET', '/api/memories?per_page=50')).status).toBe(200);
    expect422(await call(p, 'GET', '/api/memories?collection_id=abc'), 'collection_id');
    expect422(await call(p, 'GET', '/api/memories?collection_id=999999'), 'collection_id', 'The selected collection id is invalid.');
  });

  it('PATCH /api/memories/{id}: {message, memory with nested collection}; 404 and 422', async () => {
    const m = (await call(p, 'POST', '/api/memories', { body: { memory: 'old' } })).json.memory;
    const col = (await call(p, 'POST', '/api/memory-collections', { body: { name: 'Moved' } })).json.collection;
    const r = await call(p, 'PATCH', `/api/memories/${m.id}`, { body: { memory: 'new', collection_id: col.id } });
    expect(r.status).toBe(200);
    expect(sorted(r.json)).toEqual(['memory', 'message']);
    expect(r.json.message).toBe(MESSAGES.updateMemory);
    expectMemory(r.json.memory, true);
    expect(r.json.memory).toMatchObject({ id: m.id, memory: 'new', collection_id: col.id, collection: { id: col.id, user_id: 1, name: 'Moved' } });
    // collection_id omitted keeps the memory where it is.
    const kept = await call(p, 'PATCH', `/api/memories/${m.id}`, { body: { memory: 'newer' } });
    expect(kept.json.memory).toMatchObject({ memory: 'newer', collection_id: col.id, collection: { id: col.id } });

    expectMessage(await call(p, 'PATCH', '/api/memories/999999', { body: { memory: 'x' } }), 404, 'Memory not found!');
    expectMessage(await call(p, 'PATCH', '/api/memories/abc', { body: { memory: 'x' } }), 404, 'Memory not found!');
    expect422(await call(p, 'PATCH', `/api/memories/${m.id}`, { body: {} }), 'memory', 'The memory field is required.');
    expect422(await call(p, 'PATCH', `/api/memories/${m.id}`, { body: { memory: 'x'.repeat(32001) } }), 'memory');
    expect422(await call(p, 'PATCH', `/api/memories/${m.id}`, { body: { memory: 'x', collection_id: 999999 } }), 'collection_id', 'The selected collection id is invalid.');
    const still = (await call(p, 'GET', `/api/memories?collection_id=${col.id}`)).json.memories.find((x: any) => x.id === m.id);
    expect(still.memory).toBe('newer');
  });

  it('DELETE /api/memories/{id}: {message}; then 404 `Memory not found!`', async () => {
    const m = (await call(p, 'POST', '/api/memories', { body: { memory: 'bye' } })).json.memory;
    const r = await call(p, 'DELETE', `/api/memories/${m.id}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ message: MESSAGES.deleteMemory });
    expectMessage(await call(p, 'DELETE', `/api/memories/${m.id}`), 404, 'Memory not found!');
    expectMessage(await call(p, 'DELETE', '/api/memories/0'), 404, 'Memory not found!');
  });

  it("one user never sees another's memories", async () => {
    const other = p.db.prepare('INSERT INTO users(name, selected_workspace_id, created_at) VALUES (?, 1, 0)').run('Other').lastInsertRowid as number;
    const key = p.services.keys.create(Number(other), 'other').key;
    const mine = (await call(p, 'POST', '/api/memories', { body: { memory: 'private' } })).json.memory;
    const theirs = await call(p, 'GET', '/api/memories', { key });
    expect(theirs.json.meta.total).toBe(0);
    expectMessage(await call(p, 'DELETE', `/api/memories/${mine.id}`, { key }), 404, 'Memory not found!');
    expect422(await call(p, 'POST', '/api/memories', { key, body: { memory: 'x', collection_id: mine.collection_id } }), 'collection_id');
    expectMessage(await call(p, 'PUT', `/api/memory-collections/${mine.collection_id}`, { key, body: { name: 'mine now' } }), 404, 'Collection not found');
  });
});

describe('memory collections', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));

  it('POST: {message, collection (user_id, name, id)}; duplicate and bad names are 422', async () => {
    const r = await call(p, 'POST', '/api/memory-collections', { body: { name: 'Recipes' } });
    expect(r.status).toBe(200);
    expect(sorted(r.json)).toEqual(['collection', 'message']);
    expect(r.json.message).toBe(MESSAGES.createCollection);
    expectCollection(r.json.collection);
    expect(Object.keys(r.json.collection)).toEqual(['user_id', 'name', 'id']);
    expect(r.json.collection).toMatchObject({ user_id: 1, name: 'Recipes' });
    expect422(await call(p, 'POST', '/api/memory-collections', { body: { name: 'Recipes' } }), 'name', 'The name has already been taken.');
    expect422(await call(p, 'POST', '/api/memory-collections', { body: {} }), 'name', 'The name field is required.');
    expect422(await call(p, 'POST', '/api/memory-collections', { body: { name: '   ' } }), 'name', 'The name field is required.');
    expect422(await call(p, 'POST', '/api/memory-collections', { body: { name: 7 } }), 'name', 'The name field must be a string.');
  });

  it('GET: shape C with display_name, search, page bounds', async () => {
    for (const n of ['Alpha', 'Beta', 'Gamma', 'alphabet']) await call(p, 'POST', '/api/memory-collections', { body: { name: n } });
    const r = await call(p, 'GET', '/api/memory-collections');
    expectShapeC(r.json, 'collections', MESSAGES.listCollections);
    r.json.collections.forEach((c: any) => expectCollection(c, true));
    expect(r.json.meta).toEqual({ current_page: 1, last_page: 1, total: 5 });
    // Newest first (CONTRACT.md "Memories and collections").
    expect(r.json.collections.map((c: any) => c.name)).toEqual(['alphabet', 'Gamma', 'Beta', 'Alpha', 'Recipes']);
    const s = await call(p, 'GET', '/api/memory-collections?search=ALPHA');
    expect(s.json.collections.map((c: any) => c.name).sort()).toEqual(['Alpha', 'alphabet']);
    const paged = await call(p, 'GET', '/api/memory-collections?per_page=2&page=3');
    expect(paged.json.meta).toEqual({ current_page: 3, last_page: 3, total: 5 });
    expect(paged.json.collections).toHaveLength(1);
    expect422(await call(p, 'GET', '/api/memory-collections?page=0'), 'page');
    expect422(await call(p, 'GET', '/api/memory-collections?per_page=51'), 'per_page', 'The per page field must not be greater than 50.');
  });

  it('PUT renames: {message, collection (id, user_id, name)}; 404 `Collection not found`', async () => {
    const c = (await call(p, 'POST', '/api/memory-collections', { body: { name: 'Old name' } })).json.collection;
    const r = await call(p, 'PUT', `/api/memory-collections/${c.id}`, { body: { name: 'New name' } });
    expect(r.status).toBe(200);
    expect(r.json.message).toBe(MESSAGES.updateCollection);
    expect(Object.keys(r.json.collection)).toEqual(['id', 'user_id', 'name']);
    expect(r.json.collection).toEqual({ id: c.id, user_id: 1, name: 'New name' });
    expectMessage(await call(p, 'PUT', '/api/memory-collections/999999', { body: { name: 'x' } }), 404, 'Collection not found');
    expectMessage(await call(p, 'PUT', '/api/memory-collections/abc', { body: { name: 'x' } }), 404, 'Collection not found');
    expect422(await call(p, 'PUT', `/api/memory-collections/${c.id}`, { body: {} }), 'name', 'The name field is required.');
    expect422(await call(p, 'PUT', `/api/memory-collections/${c.id}`, { body: { name: 'Alpha' } }), 'name', 'The name has already been taken.');
  });

  it('ext DELETE moves the memories to the default collection (no data lost)', async () => {
    const c = (await call(p, 'POST', '/api/memory-collections', { body: { name: 'Temp' } })).json.collection;
    const m = (await call(p, 'POST', '/api/memories', { body: { memory: 'keep me', collection_id: c.id } })).json.memory;
    const r = await call(p, 'DELETE', `/api/memory-collections/${c.id}`);
    expect(r.status).toBe(200);
    expect(sorted(r.json)).toEqual(['message']);
    expectMessage(await call(p, 'DELETE', `/api/memory-collections/${c.id}`), 404, 'Collection not found');
    const all = (await call(p, 'GET', '/api/memories?per_page=50')).json.memories;
    const moved = all.find((x: any) => x.id === m.id);
    expect(moved.memory).toBe('keep me');
    const def = (await call(p, 'GET', '/api/memory-collections?search=default')).json.collections[0];
    expect(moved.collection_id).toBe(def.id);
    expect((await call(p, 'GET', `/api/memories?collection_id=${def.id}`)).json.meta.total).toBe(1);
    const refused = await call(p, 'DELETE', `/api/memory-collections/${def.id}`);
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ message: 'The default collection cannot be deleted.' });
  });
});
