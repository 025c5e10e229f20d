import { afterAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from './helpers.js';

describe('platform smoke', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));

  it('serves the seeded chat agent with the spec questions', async () => {
    const r = await call(p, 'GET', '/api/agents/1');
    expect(r.status).toBe(200);
    expect(r.json.questions.map((q: any) => q.name)).toEqual(['temperature', 'model', 'tools', 'root_id', 'messages']);
    expect(r.json.questions[1].options).toHaveLength(25);
  });

  it('refuses a request without a key', async () => {
    const r = await call(p, 'GET', '/api/agents', { key: null });
    expect(r.status).toBe(401);
    expect(r.json).toEqual({ message: 'Unauthenticated.' });
    expect(r.headers.get('www-authenticate')).toBe('Bearer');
  });
});
