/**
 * The fuzzers' oracles can fail: each is shown a bad answer or a changed table and must object.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { problemsWith } from './answers.js';
import { changedTables, digestTables } from './digest.js';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers({ 'content-type': 'application/json', ...headers }),
  text: JSON.stringify(body),
});

describe('fuzz oracles', () => {
  it('accept the contract shapes', () => {
    expect(problemsWith(json(200, { anything: 1 }))).toEqual([]);
    expect(problemsWith(json(404, { message: 'Agent not found' }))).toEqual([]);
    expect(problemsWith(json(422, { message: 'The memory field is required.', errors: { memory: ['The memory field is required.'] } }))).toEqual([]);
    expect(problemsWith(json(401, { message: 'Unauthenticated.' }, { 'www-authenticate': 'Bearer' }))).toEqual([]);
    expect(problemsWith(json(400, { error: { message: 'x', type: 'invalid_request_error', param: null, code: null } }), { method: 'POST', url: '/v1/chat/completions' })).toEqual([]);
  });

  it('flag a 500, a non-JSON error, extra keys, a 422 without errors, missing auth and retry headers, a stack trace', () => {
    expect(problemsWith(json(500, { message: 'Server Error', error: 'x' }))).not.toEqual([]);
    expect(problemsWith({ status: 400, headers: new Headers({ 'content-type': 'text/plain' }), text: 'Bad' })).not.toEqual([]);
    expect(problemsWith(json(404, { message: 'x', code: 'not_found' }))).not.toEqual([]);
    expect(problemsWith(json(422, { message: 'x' }))).not.toEqual([]);
    expect(problemsWith(json(422, { message: 'x', errors: { a: [] } }))).not.toEqual([]);
    expect(problemsWith(json(401, { message: 'Unauthenticated.' }))).not.toEqual([]);
    expect(problemsWith(json(429, { message: 'slow down' }))).not.toEqual([]);
    expect(problemsWith(json(405, { message: 'no' }))).not.toEqual([]);
    expect(problemsWith(json(400, { message: 'Error\n    at handler (/src/x.ts:12:3)' }))).not.toEqual([]);
    expect(problemsWith(json(404, { message: 'x' }), { method: 'GET', url: '/api/agents/1/openai/models' })).not.toEqual([]);
  });

  it('the digest sees any change to any row, and nothing else', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE a(id INTEGER PRIMARY KEY, v TEXT); CREATE TABLE b(k TEXT PRIMARY KEY, n INT) WITHOUT ROWID; INSERT INTO a(v) VALUES (\'x\'), (\'y\'); INSERT INTO b VALUES (\'k\', 1)');
    const d0 = digestTables(db);
    expect(changedTables(d0, digestTables(db))).toEqual([]);
    db.exec("UPDATE b SET n = 2");
    expect(changedTables(d0, digestTables(db))).toEqual(['b']);
    db.exec("UPDATE b SET n = 1; UPDATE a SET v = 'x ' WHERE id = 1");
    expect(changedTables(d0, digestTables(db))).toEqual(['a']);
    db.close();
  });
});

describe('fuzz oracles: paths as the server sees them', () => {
  it('a dot segment that leaves an OpenAI route is judged by the platform shape', () => {
    expect(problemsWith(json(404, { message: 'Not found.' }), { method: 'GET', url: '/api/agents/../openai/models' })).toEqual([]);
    expect(problemsWith(json(404, { message: 'Not found.' }), { method: 'GET', url: '/api/agents/%2e%2e/openai/models' })).toEqual([]);
  });
});
