import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BASE, KEY, call, makePlatform } from '../api/helpers.js';
import { upload } from './helpers.js';
import { makeDocx, makePdf, makePng } from '../fixtures/documents.js';
import { fileCredits } from '../../src-main/platform/kernel/credits.js';
import { searchPassages } from '../../src-main/platform/modules/files/search.js';

const OFFSET_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;
const stored = (dir: string) => fs.readdirSync(path.join(dir, 'files')).filter((n) => n !== 'tmp').sort();
const temp = (dir: string) => fs.readdirSync(path.join(dir, 'files', 'tmp'));

describe('files API', () => {
  const p = makePlatform();
  afterAll(async () => {
    await p.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
  });

  it('upload answers the spec file object, waiting, stored under its id only', async () => {
    const r = await upload(p, 'Report.TXT', 'Quarterly report.');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(['bytes', 'created_at', 'credits', 'filename', 'id', 'object', 'status']);
    expect(r.json).toMatchObject({ object: 'file', bytes: 17, filename: 'Report.TXT', credits: 0, status: 'waiting' });
    expect(r.json.created_at).toMatch(OFFSET_TIME);
    expect(stored(p.dir)).toContain(String(r.json.id));
    expect(temp(p.dir)).toEqual([]);
  });

  it('refuses an extension outside the table with 422 and keeps nothing', async () => {
    const before = stored(p.dir);
    const r = await upload(p, 'setup.exe', Buffer.from('MZ\x90\x00'));
    expect(r.status).toBe(422);
    expect(r.json.errors.file[0]).toMatch(/^The file field must be a file of type: txt, doc, docx, csv, pdf/);
    expect(r.json.message).toBe(r.json.errors.file[0]);
    const noExt = await upload(p, 'README', 'x');
    expect(noExt.status).toBe(422);
    expect(stored(p.dir)).toEqual(before);
    expect(temp(p.dir)).toEqual([]);
  });

  it('a POST that is not multipart, or has no file part, is 422 file required', async () => {
    const json = await call(p, 'POST', '/api/files', { body: { file: 'x' } });
    expect(json.status).toBe(422);
    expect(json.json).toEqual({ message: 'The file field is required.', errors: { file: ['The file field is required.'] } });
    const other = await upload(p, 'a.txt', 'x', { field: 'document' });
    expect(other.status).toBe(422);
    expect(other.json.errors.file).toEqual(['The file field is required.']);
  });

  it('keeps the last path segment of a name with ../ and unicode (as PHP gives it), never a path', async () => {
    const name = 'Ünïcødé 文件 ✓.md';
    const r = await upload(p, `../../etc/${name}`, '# Title\n\nunicode body');
    expect(r.status).toBe(200);
    expect(r.json.filename).toBe(name);
    expect(fs.existsSync(path.join(p.dir, 'etc'))).toBe(false);
    expect(stored(p.dir).every((n) => /^\d+$/.test(n))).toBe(true);
    const listed = await call(p, 'GET', '/api/files?per_page=100');
    expect(listed.json.data.find((f: any) => f.id === r.json.id).filename).toBe(name);
  });

  it('x-workspace-id: not an integer is 422, not a member is 403', async () => {
    const bad = await upload(p, 'a.txt', 'x', { headers: { 'x-workspace-id': 'abc' } });
    expect(bad.status).toBe(422);
    // A workspace that exists but is not the caller's (one naming no workspace means the selected one).
    p.db.prepare("INSERT INTO workspaces(id, name, created_at) VALUES (99, 'Theirs', 0)").run();
    const other = await upload(p, 'a.txt', 'x', { headers: { 'x-workspace-id': '99' } });
    expect(other.status).toBe(403);
    expect(other.json).toEqual({ message: expect.any(String) });
    const list = await call(p, 'GET', '/api/files', { headers: { 'x-workspace-id': '99' } });
    expect(list.status).toBe(403);
  });

  it('process=true processes before answering and charges the documented credits', async () => {
    const body = 'The lighthouse keeper logs every ship.';
    const r = await upload(p, 'log.txt', body, { process: 'true' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'completed', credits: fileCredits(Buffer.byteLength(body)) });
    expect(searchPassages(p.db, [r.json.id], 'lighthouse', 1)[0].text).toContain('lighthouse keeper');
    const bad = await upload(p, 'log.txt', body, { process: 'maybe' });
    expect(bad.status).toBe(422);
    expect(bad.json.errors.process).toEqual(['The process field must be true or false.']);
  });

  it('processing a completed file again returns it unchanged and charges nothing', async () => {
    const charges: number[] = [];
    p.events.on('credits.consumed', (e: { credits: number }) => charges.push(e.credits));
    const up = await upload(p, 'twice.md', '# Twice\n\nProcessed only once.');
    const first = await call(p, 'POST', `/api/files/${up.json.id}/process`);
    expect(first.json.status).toBe('completed');
    const second = await call(p, 'POST', `/api/files/${up.json.id}/process`);
    expect(second.json).toEqual(first.json);
    expect(charges).toEqual([first.json.credits]);
  });

  it.each([
    ['a zero-byte file', 'empty.txt', Buffer.alloc(0), /empty/],
    ['a corrupt PDF', 'broken.pdf', Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\ngarbage garbage\n%%EOF'), /PDF/],
    ['a PNG renamed to .pdf', 'photo.pdf', makePng(4, 4, 'x'), /not a PDF \(it looks like a PNG image\)/],
    ['a PNG renamed to .txt', 'photo.txt', makePng(4, 4, 'x'), /not text \(it looks like a PNG image\)/],
    ['text renamed to .docx', 'notes.docx', Buffer.from('just some text, not a zip'), /not a Word document/],
    ['text renamed to .xlsx', 'notes.xlsx', Buffer.from('a,b\n1,2\n'), /not an Excel workbook/],
    ['a truncated PNG', 'cut.png', makePng(40, 30, 'x').subarray(0, 12), /image/],
    ['an mp3 that is not one', 'song.mp3', Buffer.from('hello there, not audio at all'.repeat(10)), /./],
  ])('%s ends failed with a reason, never a 500', async (_what, name, bytes, reason) => {
    const up = await upload(p, name, bytes);
    expect(up.status).toBe(200);
    const r = await call(p, 'POST', `/api/files/${up.json.id}/process`);
    expect(r.status).toBe(200);
    expect(r.json.status).toBe('failed');
    expect(r.json.credits).toBe(0);
    expect(r.json.error).toMatch(reason);
    const got = await call(p, 'GET', `/api/files/${up.json.id}`);
    expect(got.json).toMatchObject({ status: 'failed', error: r.json.error, passages: 0 });
  });

  it('a docx renamed .doc still reads (the container is sniffed)', async () => {
    const up = await upload(p, 'renamed.doc', await makeDocx(['The cartographer draws coastlines.']), { process: true });
    expect(up.json.status, up.json.error).toBe('completed');
  });

  it('a big PDF is split into many passages with overlap', async () => {
    const pdf = await makePdf(6, (i) => Array.from({ length: 50 }, (_, j) => `Page ${i + 1} line ${j + 1}: the orchard harvest continues steadily.`));
    const up = await upload(p, 'long.pdf', pdf, { process: true });
    expect(up.json.status).toBe('completed');
    const detail = (await call(p, 'GET', `/api/files/${up.json.id}`)).json;
    expect(detail.metadata.pages).toBe(6);
    expect(detail.passages).toBeGreaterThan(15);
    const rows = p.db.prepare('SELECT text FROM file_passages WHERE file_id = ? ORDER BY ordinal').all(up.json.id) as { text: string }[];
    expect(Math.max(...rows.map((r) => r.text.length))).toBeLessThanOrEqual(1500);
    expect(rows[1].text.slice(0, 40)).toBe(rows[0].text.slice(rows[0].text.indexOf(rows[1].text.slice(0, 40)), rows[0].text.indexOf(rows[1].text.slice(0, 40)) + 40));
  });

  it('lists with page, per_page and order, as {data} only', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await upload(p, `order-${i}.txt`, `n${i}`)).json.id);
    const desc = await call(p, 'GET', '/api/files?per_page=2');
    expect(Object.keys(desc.json)).toEqual(['data']);
    expect(desc.json.data.map((f: any) => f.id)).toEqual([ids[2], ids[1]]);
    const page2 = await call(p, 'GET', '/api/files?per_page=2&page=2');
    expect(page2.json.data[0].id).toBe(ids[0]);
    const asc = await call(p, 'GET', '/api/files?order=asc&per_page=100');
    const all = asc.json.data.map((f: any) => f.id);
    expect(all).toEqual([...all].sort((a: number, b: number) => a - b));
    expect((await call(p, 'GET', '/api/files?page=999')).json).toEqual({ data: [] });
    for (const q of ['per_page=0', 'per_page=101', 'page=0', 'order=sideways', 'per_page=abc']) {
      const r = await call(p, 'GET', `/api/files?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.json.errors).toBeTruthy();
    }
  });

  it('delete removes bytes, passages and links; the id then answers 404', async () => {
    const up = await upload(p, 'gone.txt', 'The vanishing phrase is saxophone.', { process: true });
    await call(p, 'POST', '/api/agents/1/files', { body: { file_ids: [up.json.id] } });
    const del = await call(p, 'DELETE', `/api/files/${up.json.id}`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ id: String(up.json.id), object: 'file', deleted: true });
    expect(stored(p.dir)).not.toContain(String(up.json.id));
    expect(p.services.files.linkedFileIds(1)).not.toContain(up.json.id);
    expect(searchPassages(p.db, [up.json.id], 'saxophone', 5)).toEqual([]);
    await p.jobs.idle();
    expect((p.db.prepare('SELECT count(*) AS n FROM file_passages WHERE file_id = ?').get(up.json.id) as { n: number }).n).toBe(0);
    expect((p.db.prepare("SELECT count(*) AS n FROM file_passages_fts WHERE file_passages_fts MATCH 'saxophone'").get() as { n: number }).n).toBe(0);
    for (const [m, u] of [['DELETE', `/api/files/${up.json.id}`], ['GET', `/api/files/${up.json.id}`], ['POST', `/api/files/${up.json.id}/process`], ['DELETE', '/api/files/abc']]) {
      const r = await call(p, m, u);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: 'File not found' });
    }
  });

  it('a new file never reuses a deleted id', async () => {
    const a = await upload(p, 'a.txt', 'a');
    await call(p, 'DELETE', `/api/files/${a.json.id}`);
    const b = await upload(p, 'b.txt', 'b');
    expect(b.json.id).toBeGreaterThan(a.json.id);
  });

  it('a file of exactly the limit is accepted, one byte more is 413', async () => {
    const small = makePlatform({ maxUploadBytes: 32 * 1024 });
    try {
      expect((await upload(small, 'exact.txt', Buffer.alloc(32 * 1024, 97))).status).toBe(200);
      expect((await upload(small, 'over.txt', Buffer.alloc(32 * 1024 + 1, 97))).status).toBe(413);
      expect(temp(small.dir)).toEqual([]);
    } finally {
      await small.close();
      fs.rmSync(small.dir, { recursive: true, force: true });
    }
  });

  it('an upload over the limit is 413 with nothing kept (streamed, no length declared)', async () => {
    const small = makePlatform({ maxUploadBytes: 64 * 1024 });
    try {
      let sent = 0;
      const boundary = 'XyZboundary';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`;
      const body = new ReadableStream<Uint8Array>({
        pull(ctl) {
          if (sent === 0) ctl.enqueue(new TextEncoder().encode(head));
          if (sent > 200 * 1024) {
            ctl.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
            return ctl.close();
          }
          sent += 16 * 1024;
          ctl.enqueue(new Uint8Array(16 * 1024).fill(97));
        },
      });
      const res = await small.app.request(`${BASE}/api/files`, {
        method: 'POST',
        headers: { host: '127.0.0.1:8787', authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ message: 'The file must not be greater than 0 MB.'.replace('0 MB', `${Math.round(64 / 1024)} MB`) });
      expect(stored(small.dir)).toEqual([]);
      expect(temp(small.dir)).toEqual([]);
      expect((small.db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n).toBe(0);
    } finally {
      await small.close();
      fs.rmSync(small.dir, { recursive: true, force: true });
    }
  });
});
