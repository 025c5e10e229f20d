import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { call, makePlatform } from '../api/helpers.js';
import { filesSettled, upload } from './helpers.js';
import { searchPassages } from '../../src-main/platform/modules/files/search.js';

describe('agent file sets', () => {
  const p = makePlatform();
  afterAll(async () => {
    await p.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
  });

  it('an agent without files has an empty, completed set', async () => {
    const r = await call(p, 'GET', '/api/agents/1/files');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ id: 1, files: [], status: 'completed' });
  });

  it('linking a waiting file starts its processing: in_progress, then completed', async () => {
    const a = await upload(p, 'a.txt', 'The first note mentions tangerines.');
    const b = await upload(p, 'b.md', '# B\n\nThe second note mentions walnuts.');
    expect(a.json.status).toBe('waiting');
    const link = await call(p, 'POST', '/api/agents/1/files', { body: { file_ids: [a.json.id, String(b.json.id)] } });
    expect(link.status).toBe(200);
    expect(Object.keys(link.json).sort()).toEqual(['files', 'files_count', 'id', 'status']);
    expect(link.json.id).toBe(1);
    expect(link.json.status).toBe('in_progress');
    expect(link.json.files_count).toEqual({ total: 2, completed: 0, failed: 0, in_progress: 2 });
    expect(link.json.files.map((f: any) => f.status)).toEqual(['in_progress', 'in_progress']);
    await p.jobs.idle();
    await filesSettled(p);
    const set = await call(p, 'GET', '/api/agents/1/files');
    expect(set.json.status).toBe('completed');
    expect(set.json.files_count).toBeUndefined();
    expect(set.json.files.map((f: any) => [f.id, f.status])).toEqual([
      [a.json.id, 'completed'],
      [b.json.id, 'completed'],
    ]);
    // Linking again is idempotent.
    const again = await call(p, 'POST', '/api/agents/1/files', { body: { file_ids: [a.json.id] } });
    expect(again.json.files_count).toEqual({ total: 2, completed: 2, failed: 0, in_progress: 0 });
    const hits = searchPassages(p.db, p.services.files.linkedFileIds(1), 'walnuts tangerines', 5);
    expect(hits.map((h) => h.filename).sort()).toEqual(['a.txt', 'b.md']);
    expect(hits[0].rank).toBeLessThanOrEqual(hits[1].rank);
  });

  it('a failed file makes the set failed', async () => {
    const bad = await upload(p, 'empty.txt', '');
    await call(p, 'POST', '/api/agents/2/files', { body: { file_ids: [bad.json.id] } });
    await p.jobs.idle();
    await filesSettled(p);
    const set = await call(p, 'GET', '/api/agents/2/files');
    expect(set.json.status).toBe('failed');
    expect(set.json.files[0]).toMatchObject({ status: 'failed', error: 'The file is empty.' });
  });

  it('unknown or invalid file ids are 422 per item; an unknown agent is 404', async () => {
    const r = await call(p, 'POST', '/api/agents/1/files', { body: { file_ids: [1, 'abc'] } });
    expect(r.status).toBe(422);
    expect(Object.keys(r.json.errors)).toEqual(['file_ids.1']);
    const unknown = await call(p, 'POST', '/api/agents/1/files', { body: { file_ids: [999999] } });
    expect(unknown.json).toEqual({ message: 'The selected file_ids.0 is invalid.', errors: { 'file_ids.0': ['The selected file_ids.0 is invalid.'] } });
    for (const body of [{}, { file_ids: [] }, { file_ids: 'x' }]) expect((await call(p, 'POST', '/api/agents/1/files', { body })).status).toBe(422);
    for (const [m, u, body] of [['GET', '/api/agents/9999/files'], ['POST', '/api/agents/9999/files', { file_ids: [1] }], ['DELETE', '/api/agents/9999/files/1'], ['GET', '/api/agents/x/files']] as const) {
      const res = await call(p, m, u, { body });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ message: 'Agent not found' });
    }
  });

  it('unlink answers {id, file, removed}; a second unlink removes nothing; an unknown file is 404', async () => {
    const f = await upload(p, 'c.txt', 'cherries');
    await call(p, 'POST', '/api/agents/3/files', { body: { file_ids: [f.json.id] } });
    const r = await call(p, 'DELETE', `/api/agents/3/files/${f.json.id}`);
    expect(r.status).toBe(200);
    expect(r.json.id).toBe(3);
    expect(r.json.removed).toBe(true);
    expect(r.json.file.id).toBe(f.json.id);
    expect((await call(p, 'DELETE', `/api/agents/3/files/${f.json.id}`)).json.removed).toBe(false);
    expect(p.services.files.linkedFileIds(3)).toEqual([]);
    const missing = await call(p, 'DELETE', '/api/agents/3/files/999999');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ message: 'File not found' });
  });

  it('the multipart variant uploads a file and links it', async () => {
    const r = await upload(p, 'linked.txt', 'The multipart variant mentions pomegranates.', { url: '/api/agents/4/files' });
    expect(r.status).toBe(200);
    expect(r.json.files_count.total).toBe(1);
    await p.jobs.idle();
    await filesSettled(p);
    expect(searchPassages(p.db, p.services.files.linkedFileIds(4), 'pomegranates', 1)[0].filename).toBe('linked.txt');
  });

  it('createFromBuffer stores a generated file in the workspace', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="20"/>');
    const f = p.services.files.createFromBuffer(1, 'generated.svg', svg);
    expect(f).toMatchObject({ object: 'file', status: 'waiting', filename: 'generated.svg', bytes: svg.length });
    expect(fs.readFileSync(p.services.files.store.pathOf(f.id))).toEqual(svg);
    expect(fs.existsSync(p.services.files.store.pathOf(f.id))).toBe(true);
    expect(() => p.services.files.createFromBuffer(1, 'x.exe', Buffer.from('x'))).toThrow(/must be a file of type/);
  });

  it('search ignores FTS syntax in the query and files that are not completed', async () => {
    const f = await upload(p, 'w.txt', 'waiting text about nectarines');
    expect(searchPassages(p.db, [f.json.id], 'nectarines', 5)).toEqual([]);
    for (const q of ['"unbalanced', 'a AND OR NOT', 'col:umn*', '()', '']) expect(() => searchPassages(p.db, [f.json.id], q, 5)).not.toThrow();
  });
});
