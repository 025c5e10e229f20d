import { afterAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { expect422, expectMessage } from '../api/spec-shapes.js';
import { joinPassages, overlapLength } from '../../src-main/platform/modules/files/text.js';
import { chunkText } from '../../src-main/platform/ingest/chunk.js';
import { upload } from './helpers.js';

/** Words a person reads, whatever white space holds them. */
const words = (s: string) => s.split(/\s+/).filter(Boolean);

/** Paragraphs of numbered sentences: every word is unique, so a repeated overlap would show. */
function document(paragraphs: number, sentences: number): string {
  let n = 0;
  return Array.from({ length: paragraphs }, () => Array.from({ length: sentences }, () => `Sentence number ${++n} says something about bees and honey.`).join(' ')).join('\n\n');
}

describe('a file\'s text read back from its passages', () => {
  it('joins passages without their overlaps: every word once, in order', () => {
    const text = document(12, 9);
    const passages = chunkText(text);
    expect(passages.length).toBeGreaterThan(4);
    // The passages do repeat text (the overlap), so a plain join would not be the text.
    expect(words(passages.join(' ')).length).toBeGreaterThan(words(text).length);
    const page = (offset: number, limit: number) => passages.slice(offset, offset + limit).map((t, i) => ({ ordinal: offset + i, text: t }));
    const read = joinPassages(page, 1_000_000);
    expect(read.truncated).toBe(false);
    expect(words(read.text)).toEqual(words(text));
    const cut = joinPassages(page, 500);
    expect(cut).toEqual({ text: read.text.slice(0, 500), truncated: true });
  });

  it('a passage that does not open with the end of the one before is kept whole', () => {
    expect(overlapLength('The end of one.', 'Another start here.')).toBe(0);
    expect(overlapLength('alpha beta gamma', 'beta gamma delta')).toBe('beta gamma '.length);
  });
});

describe('GET /api/files/{fileId}/text (ext)', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));

  it('answers the text of a processed file, whole or its beginning', async () => {
    const text = document(10, 8);
    const f = (await upload(p, 'bees.txt', text, { process: true })).json;
    expect(f.status).toBe('completed');
    const r = await call(p, 'GET', `/api/files/${f.id}/text`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(['filename', 'id', 'passages', 'status', 'text', 'truncated']);
    expect(r.json).toMatchObject({ id: f.id, filename: 'bees.txt', status: 'completed', truncated: false });
    expect(r.json.passages).toBe((await call(p, 'GET', `/api/files/${f.id}/passages`)).json.total);
    expect(r.json.passages).toBeGreaterThan(3);
    expect(words(r.json.text)).toEqual(words(text));
    // Paragraph breaks survive where a passage was cut after a sentence.
    expect(r.json.text).toContain('.\n\nSentence');
    const short = await call(p, 'GET', `/api/files/${f.id}/text?max_chars=120`);
    expect(short.json).toMatchObject({ truncated: true, text: r.json.text.slice(0, 120) });
  });

  it('a file not processed yet has no text; unknown files are 404 and bad limits 422', async () => {
    const f = (await upload(p, 'later.md', '# Later\n\nNot read yet.')).json;
    expect(f.status).toBe('waiting');
    expect((await call(p, 'GET', `/api/files/${f.id}/text`)).json).toMatchObject({ status: 'waiting', text: '', truncated: false, passages: 0 });
    expectMessage(await call(p, 'GET', '/api/files/999999/text'), 404, 'File not found');
    expectMessage(await call(p, 'GET', '/api/files/abc/text'), 404, 'File not found');
    expect422(await call(p, 'GET', `/api/files/${f.id}/text?max_chars=0`), 'max_chars');
    expect422(await call(p, 'GET', `/api/files/${f.id}/text?max_chars=many`), 'max_chars');
    expect422(await call(p, 'GET', `/api/files/${f.id}/text?max_chars=1000001`), 'max_chars');
  });
});
