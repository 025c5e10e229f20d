import { afterAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from './helpers.js';
import { expect422, expectMessage, ISO_MICROS, sorted } from './spec-shapes.js';

describe('ext /api/keys', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));
  const KEY_INFO = ['created_at', 'id', 'last_used_at', 'name', 'prefix', 'revoked_at'];

  it('create shows the key once; it authenticates; list never shows it; revoke stops it', async () => {
    const c = await call(p, 'POST', '/api/keys', { body: { name: 'ci' } });
    expect(c.status).toBe(201);
    expect(sorted(c.json)).toEqual([...KEY_INFO, 'key'].sort());
    expect(c.json.key.startsWith(c.json.prefix)).toBe(true);
    expect(c.json.created_at).toMatch(ISO_MICROS);
    const key = c.json.key as string;

    expect((await call(p, 'GET', '/api/agents', { key })).status).toBe(200);
    const list = await call(p, 'GET', '/api/keys', { key });
    expect(sorted(list.json)).toEqual(['data']);
    expect(list.json.data.map((k: any) => sorted(k))).toEqual([KEY_INFO]);
    expect(JSON.stringify(list.json)).not.toContain(key);
    expect(list.json.data[0].last_used_at).toMatch(ISO_MICROS);
    // Only a hash is stored.
    expect(JSON.stringify(p.db.prepare('SELECT * FROM api_keys').all())).not.toContain(key);

    const r = await call(p, 'DELETE', `/api/keys/${c.json.id}`);
    expect(r.status).toBe(200);
    expect(r.json.revoked_at).toMatch(ISO_MICROS);
    expectMessage(await call(p, 'GET', '/api/agents', { key }), 401, 'Unauthenticated.');
  });

  it('refuses bad input', async () => {
    expect422(await call(p, 'POST', '/api/keys', { body: {} }), 'name', 'The name field is required.');
    expect422(await call(p, 'POST', '/api/keys', { body: { name: 'x'.repeat(101) } }), 'name');
    expectMessage(await call(p, 'DELETE', '/api/keys/999999'), 404, 'API key not found');
    expectMessage(await call(p, 'DELETE', '/api/keys/abc'), 404, 'API key not found');
  });
});
