/**
 * One full-text query builder for file passages and memories (db/fts-query.ts): the rules, and
 * the memories search (ext `q`) reading them as file search does.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_QUERY_TERMS, ftsQuery, queryTerms } from '../../src-main/platform/db/fts-query.js';
import { call, closePlatform, makePlatform } from '../api/helpers.js';

describe('ftsQuery: free text into a safe FTS5 query', () => {
  it('quotes each word once, lower-cased, OR-ed; FTS syntax never gets through', () => {
    expect(ftsQuery('Apples apples PEARS')).toBe('"apples" OR "pears"');
    expect(ftsQuery('title:secret NEAR(x y) "open')).toBe('"title" OR "secret" OR "near" OR "open"');
    expect(ftsQuery('Ünïcødé straße')).toBe('"ünïcødé" OR "straße"');
  });

  it('drops stop words and single letters, keeps single digits, unless nothing else is left', () => {
    expect(ftsQuery('what is the price of a room')).toBe('"price" OR "room"');
    expect(ftsQuery('room 7 b')).toBe('"room" OR "7"');
    expect(ftsQuery('the and of')).toBe('"the" OR "and" OR "of"');
    expect(ftsQuery('a')).toBe('"a"');
  });

  it('no word: null; a word over 64 characters is no word; at most MAX_QUERY_TERMS words', () => {
    expect(ftsQuery('*** ?! --')).toBeNull();
    expect(ftsQuery('')).toBeNull();
    expect(ftsQuery(`${'x'.repeat(65)} kayak`)).toBe('"kayak"');
    expect(ftsQuery('x'.repeat(65))).toBeNull();
    const many = Array.from({ length: 40 }, (_, i) => `word${i}`);
    expect(MAX_QUERY_TERMS).toBe(24);
    expect(queryTerms(many.join(' '))).toEqual(many.slice(0, 24));
  });
});

describe('memories search (ext q) reads queries as file search does', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));

  it('a stop word does not make a memory match; alone, it is searched for', async () => {
    for (const memory of ['The cat sleeps on the sofa.', 'The dog barks.']) expect((await call(p, 'POST', '/api/memories', { body: { memory } })).status).toBe(200);
    const cat = await call(p, 'GET', '/api/memories?q=the%20cat');
    expect(cat.json.memories.map((m: { memory: string }) => m.memory)).toEqual(['The cat sleeps on the sofa.']);
    const the = await call(p, 'GET', '/api/memories?q=the');
    expect(the.json.meta.total).toBe(2);
    expect((await call(p, 'GET', '/api/memories?q=%22%29%28')).json.meta.total).toBe(0);
  });
});
