/**
 * GET /api/files ext filters (CONTRACT.md "Files"): `status` and `q`, combined with the spec's
 * `page`, `per_page` and `order`; the answer stays `{data}` only; every bad value is a 422.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makePlatform } from '../api/helpers.js';
import { upload } from './helpers.js';

const names = (r: { json: { data: { filename: string }[] } }) => r.json.data.map((f) => f.filename);

describe('GET /api/files filters', () => {
  const p = makePlatform();
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    // Uploaded one after another, so created_at order is this order.
    const plan: [string, string, boolean][] = [
      ['Quarterly REPORT.txt', 'Revenue grew.', true],
      ['report-draft.md', '# Draft', false],
      ['photo.pdf', 'not a pdf at all', true], // ends failed
      ['100%_done.txt', 'percent', false],
      ['Ünïcødé notes.txt', 'unicode', true],
      ['minutes.csv', 'a,b\n1,2\n', false],
      ['report-final.txt', 'Final.', true],
    ];
    for (const [name, body, process] of plan) {
      const r = await upload(p, name, body, { process });
      expect(r.status, name).toBe(200);
      ids[name] = r.json.id;
    }
    // in_progress is transient in real use; set it directly so the filter has something to find.
    p.db.prepare("UPDATE files SET status = 'in_progress' WHERE id = ?").run(ids['minutes.csv']);
  });
  afterAll(async () => {
    await p.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
  });

  it('status returns only files in that status, for each status', async () => {
    const expected: Record<string, string[]> = {
      completed: ['report-final.txt', 'Ünïcødé notes.txt', 'Quarterly REPORT.txt'],
      failed: ['photo.pdf'],
      waiting: ['100%_done.txt', 'report-draft.md'],
      in_progress: ['minutes.csv'],
    };
    for (const [status, want] of Object.entries(expected)) {
      const r = await call(p, 'GET', `/api/files?status=${status}&per_page=100`);
      expect(r.status, status).toBe(200);
      expect(Object.keys(r.json)).toEqual(['data']);
      expect(names(r), status).toEqual(want);
      expect(r.json.data.every((f: { status: string }) => f.status === status)).toBe(true);
    }
  });

  it('q is a case-insensitive substring of the filename', async () => {
    expect(names(await call(p, 'GET', '/api/files?q=REPORT&order=asc'))).toEqual(['Quarterly REPORT.txt', 'report-draft.md', 'report-final.txt']);
    expect(names(await call(p, 'GET', '/api/files?q=rEpOrT-f'))).toEqual(['report-final.txt']);
    expect(names(await call(p, 'GET', `/api/files?q=${encodeURIComponent('ÜNÏ')}`))).toEqual(['Ünïcødé notes.txt']);
    // The same name typed decomposed (NFD) still matches the stored (NFC) one.
    expect(names(await call(p, 'GET', `/api/files?q=${encodeURIComponent('ünï'.normalize('NFD'))}`))).toEqual(['Ünïcødé notes.txt']);
    expect(names(await call(p, 'GET', '/api/files?q=.CSV'))).toEqual(['minutes.csv']);
    expect((await call(p, 'GET', '/api/files?q=nothing-like-this')).json).toEqual({ data: [] });
  });

  it('q treats % and _ as plain characters, not patterns', async () => {
    expect(names(await call(p, 'GET', `/api/files?q=${encodeURIComponent('%')}`))).toEqual(['100%_done.txt']);
    expect(names(await call(p, 'GET', '/api/files?q=_'))).toEqual(['100%_done.txt']);
    expect(names(await call(p, 'GET', `/api/files?q=${encodeURIComponent('0%_d')}`))).toEqual(['100%_done.txt']);
  });

  it('filters combine with each other and with page, per_page and order', async () => {
    const both = await call(p, 'GET', '/api/files?q=report&status=completed&order=asc');
    expect(names(both)).toEqual(['Quarterly REPORT.txt', 'report-final.txt']);
    const first = await call(p, 'GET', '/api/files?status=completed&per_page=2&order=asc');
    const second = await call(p, 'GET', '/api/files?status=completed&per_page=2&page=2&order=asc');
    expect(names(first)).toEqual(['Quarterly REPORT.txt', 'Ünïcødé notes.txt']);
    expect(names(second)).toEqual(['report-final.txt']);
    expect((await call(p, 'GET', '/api/files?status=completed&per_page=2&page=3')).json).toEqual({ data: [] });
    const desc = await call(p, 'GET', '/api/files?q=report&per_page=1&page=2');
    expect(names(desc)).toEqual(['report-draft.md']);
  });

  it('an empty status or q means "not given" (what an HTML form sends for any)', async () => {
    const all = names(await call(p, 'GET', '/api/files?per_page=100'));
    expect(all).toHaveLength(7);
    expect(names(await call(p, 'GET', '/api/files?per_page=100&status=&q='))).toEqual(all);
  });

  it('a q of exactly 255 characters is accepted', async () => {
    const r = await call(p, 'GET', `/api/files?q=${'a'.repeat(255)}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ data: [] });
  });

  it.each([
    ['status=done', 'status', 'The selected status is invalid.'],
    ['status=COMPLETED', 'status', 'The selected status is invalid.'],
    ['status=completed&status=failed', 'status', 'The selected status is invalid.'],
    [`q=${'a'.repeat(256)}`, 'q', 'The q field must not be greater than 255 characters.'],
    ['q=a&q=b', 'q', 'The q field must be a string.'],
    ['status=completed&per_page=101', 'per_page', 'The per page field must not be greater than 100.'],
    ['q=report&per_page=0', 'per_page', 'The per page field must be at least 1.'],
    ['q=report&page=0', 'page', 'The page field must be at least 1.'],
    ['status=failed&order=up', 'order', 'The selected order is invalid.'],
  ])('%s is 422 in the Laravel envelope', async (query, field, message) => {
    const r = await call(p, 'GET', `/api/files?${query}`);
    expect(r.status).toBe(422);
    expect(r.json.errors[field]).toEqual([message]);
    expect(r.json.message).toBe(Object.values<string[]>(r.json.errors)[0][0]);
  });

  it('the OpenAPI document describes status and q on GET /api/files', async () => {
    const doc = (await call(p, 'GET', '/api/openapi.json', { key: null })).json;
    const params = doc.paths['/api/files'].get.parameters as { name: string; in: string; required?: boolean; schema: any }[];
    const status = params.find((x) => x.name === 'status' && x.in === 'query')!;
    const q = params.find((x) => x.name === 'q' && x.in === 'query')!;
    expect(status.required ?? false).toBe(false);
    expect(status.schema.enum).toEqual(['waiting', 'in_progress', 'completed', 'failed']);
    expect(q.required ?? false).toBe(false);
    expect(q.schema.maxLength).toBe(255);
    expect(params.map((x) => x.name)).toEqual(expect.arrayContaining(['page', 'per_page', 'order']));
  });
});
