import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chunkText, Chunker, lastSentenceEnd } from '../../src-main/platform/ingest/chunk.js';
import { ftsQuery } from '../../src-main/platform/db/fts-query.js';
import { limit } from '../fixtures/until.js';

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

/**
 * Work of the chunker measured as characters the string primitives it may use could examine,
 * counted by wrapping them while it runs (not wall time, so a loaded CPU cannot skew it): a
 * search counts the distance it scanned, a copy or a regex pass the length it covered (V8's
 * regex engine is linear on the chunker's patterns). Code that scans back to the start of a run
 * on every cut (the old hardSplit's lastIndexOf) counts quadratically and fails.
 */
function measureWork(run: () => void): number {
  const proto = String.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const saved: Record<string, (...a: unknown[]) => unknown> = {};
  let work = 0;
  const wrap = (name: string, cost: (s: string, args: unknown[], result: unknown) => number) => {
    const orig = proto[name];
    saved[name] = orig;
    proto[name] = function (this: string, ...args: unknown[]) {
      const result = orig.apply(this, args);
      work += cost(String(this), args, result);
      return result;
    };
  };
  const len = (s: string) => s.length;
  wrap('indexOf', (s, a, r) => ((r as number) >= 0 ? (r as number) + String(a[0]).length : s.length) - Math.max(0, Number(a[1] ?? 0)) + 1);
  wrap('lastIndexOf', (s, a, r) => Math.min(s.length, a[1] === undefined ? s.length : Number(a[1])) - Math.max(0, r as number) + 1);
  wrap('charCodeAt', () => 1);
  wrap('charAt', () => 1);
  wrap('slice', (_s, _a, r) => (r as string).length + 1);
  wrap('substring', (_s, _a, r) => (r as string).length + 1);
  wrap('trim', len);
  wrap('split', len);
  wrap('replace', len);
  wrap('match', len);
  try {
    run();
  } finally {
    Object.assign(proto, saved);
  }
  return work;
}

/** Text built from runs that stress each cut: long words without spaces, spaces, sentence ends, line and paragraph breaks. */
const piece = fc.oneof(
  fc.integer({ min: 1, max: 200_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1, max: 20 }).map((n) => 'word '.repeat(n)),
  fc.constantFrom('. ', '! ', '\n', '\n\n', ' ', '。', '.'),
);

describe('chunker work', () => {
  it('grows linearly with the input, whatever its shape and however it is pushed', () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 1 << 20 }), (parts, slice) => {
        const text = parts.join('');
        const work = (t: string) =>
          measureWork(() => {
            const c = new Chunker(() => {});
            for (let i = 0; i < t.length; i += slice) c.push(t.slice(i, i + slice));
            c.end();
          });
        const once = work(text);
        // A bounded cost per character (about 10 here; the old code spent over 200 on a 400 KB run)…
        expect(once).toBeLessThanOrEqual(40 * text.length + 20_000);
        // …and four times the text costs about four times the work.
        const four = work(text.repeat(4));
        expect(four).toBeLessThanOrEqual(4.5 * once + 20_000);
      }),
      { numRuns: 25 },
    );
  }, limit(120_000));
});
