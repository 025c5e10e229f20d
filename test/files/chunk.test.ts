import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chunkText, Chunker, lastSentenceEnd } from '../../src-main/platform/ingest/chunk.js';
import { ftsQuery } from '../../src-main/platform/modules/files/search.js';

describe('chunker', () => {
  it('keeps short text whole', () => {
    expect(chunkText('One paragraph.\n\nAnother one.')).toEqual(['One paragraph.\n\nAnother one.']);
  });

  it('cuts on paragraph and sentence boundaries near the target, with overlap', () => {
    const para = (i: number) => `Paragraph ${i} starts here. ${'It has several plain sentences. '.repeat(8)}It ends with marker${i}.`;
    const text = Array.from({ length: 12 }, (_, i) => para(i)).join('\n\n');
    const out = chunkText(text);
    expect(out.length).toBeGreaterThan(3);
    for (const p of out) expect(p.length).toBeLessThanOrEqual(1400);
    for (let i = 0; i < 12; i++) expect(out.some((p) => p.includes(`marker${i}.`))).toBe(true);
    // Each passage after the first starts with the tail of the one before.
    for (let i = 1; i < out.length; i++) expect(out[i - 1]).toContain(out[i].slice(0, 30));
  });

  it('splits text without any boundary (minified, tables) at spaces or hard', () => {
    const out = chunkText('x'.repeat(5000));
    expect(out.length).toBeGreaterThanOrEqual(4);
    expect(out.every((p) => p.length <= 1250)).toBe(true);
  });

  it('loses no word, streamed in any slicing', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,12}[.!]?$/), { minLength: 1, maxLength: 600 }), fc.integer({ min: 1, max: 500 }), (words, slice) => {
        const text = words.join(' ');
        const out: string[] = [];
        const c = new Chunker((t) => out.push(t), { target: 200, overlap: 40 });
        for (let i = 0; i < text.length; i += slice) c.push(text.slice(i, i + slice));
        c.end();
        const joined = new Set(out.join(' ').split(/\s+/));
        for (const w of words) expect(joined.has(w)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe('fts query', () => {
  it('quotes words, drops stop words, never passes syntax through', () => {
    expect(ftsQuery('What is the "price" of NEAR(apples)?')).toBe('"price" OR "near" OR "apples"');
    expect(ftsQuery('the and of')).toBe('"the" OR "and" OR "of"');
    expect(ftsQuery('***')).toBeNull();
  });
});

describe('chunker on text without sentence ends', () => {
  it('splits a long run with no sentence end in linear time (it used to backtrack for minutes)', () => {
    const line = `32999104d797 é ${'x'.repeat(1999)}\n`;
    const text = line.repeat(120); // ~240 KB, not one sentence end
    // No timing assertion: the quadratic version never finished within the test's timeout.
    const passages = chunkText(text);
    expect(passages.length).toBeGreaterThan(100);
    expect(passages.join('').replace(/\s/g, '').length).toBeGreaterThanOrEqual(text.replace(/\s/g, '').length);
  });

  it('lastSentenceEnd finds the text after the last end mark and white space', () => {
    expect(lastSentenceEnd('One. Two! Three')).toBe('One. Two! '.length);
    expect(lastSentenceEnd('no end at all')).toBeNull();
    expect(lastSentenceEnd('end.')).toBeNull();
    expect(lastSentenceEnd('漢字。 次')).toBe(4);
  });
});
