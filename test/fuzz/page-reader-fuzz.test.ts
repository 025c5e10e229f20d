/**
 * Property-based fuzzing of the page reader (ingest/pages) around its limits: pages built from
 * visible words, chrome that must be dropped (scripts, navigation, comments), hostile runs (`<!--`,
 * `<title>`, `<nav>`, unclosed quotes) and caps drawn on both sides of the text's length. Oracle:
 * the visible words come out in order and nothing else of them, the text never passes its cap and
 * is a prefix of the uncapped text, and a page read in the reader process answers as the same
 * function does (or, past MAX_PAGE_CHARS, as it does on the page cut there).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FUZZ_SEED } from './harness.js';
import { readableText } from '../../src-main/platform/ingest/pages/readable.js';
import { MAX_PAGE_CHARS, readPage } from '../../src-main/platform/ingest/pages/read.js';
import { limit } from '../fixtures/until.js';

/** A piece of a page: its HTML and the words a reader must see from it, in order. */
interface Piece {
  html: string;
  words: string[];
}

const word = fc.integer({ min: 0, max: 1e6 }).map((n) => `w${n}`);
const words = fc.array(word, { minLength: 1, maxLength: 4 });
const entity = fc.constantFrom(['&amp;', '&'], ['&lt;', '<'], ['&#233;', 'é'], ['&nbsp;', ' '], ['&quot;', '"']);

const visible: fc.Arbitrary<Piece> = fc.oneof(
  words.map((w) => ({ html: `<p>${w.join(' ')}</p>`, words: w })),
  fc.tuple(words, fc.constantFrom('div', 'span', 'li', 'td', 'h2', 'b', 'a href="x?a=1&b=2"', 'em class=\'z\'')).map(([w, tag]) => ({
    html: `<${tag}>${w.join('\n  ')}</${tag.split(' ')[0]}>`,
    words: w,
  })),
  fc.tuple(words, entity).map(([w, [code]]) => ({ html: `<p>${w.join(` ${code} `)}</p>`, words: w })),
  words.map((w) => ({ html: `${w.join('<br>')}<img src="a.png"><hr>`, words: w })),
);
/** Chrome: its words must never reach the text. */
const hidden: fc.Arbitrary<Piece> = fc
  .tuple(words, fc.constantFrom('script', 'style', 'nav', 'header', 'footer', 'aside', 'noscript', 'template', 'form', 'button', 'comment', 'head'))
  .map(([w, tag]) => ({
    html: tag === 'comment' ? `<!-- ${w.join(' ')} <p>x</p> -->` : tag === 'script' ? `<script>var s = "</p> ${w.join(' ')}";</script>` : `<${tag}><p>${w.join(' ')}</p></${tag}>`,
    words: [],
  }));
/** What a stranger's server sends to stall a reader: long runs of openings. */
const hostile = fc
  .tuple(fc.constantFrom('<!--', '<title>', '<nav>', '<div>', '<a href="', '<<', '&#', '</', '<!DOCTYPE'), fc.integer({ min: 1, max: 20_000 }))
  .map(([s, n]) => s.repeat(n));

const page = fc.array(fc.oneof({ arbitrary: visible, weight: 3 }, { arbitrary: hidden, weight: 1 }), { maxLength: 30 });
const onlyWords = (text: string) => text.split(/\s+/).filter((t) => /^w\d+$/.test(t));

describe('fuzz: the page reader, around its limits', () => {
  it(
    'visible words come out in order and chrome never does; the text keeps to its cap and is a prefix of the whole',
    () => {
      fc.assert(
        fc.property(page, fc.integer({ min: -40, max: 40 }), (pieces, d) => {
          const html = `<html><head><title>T</title></head><body>${pieces.map((p) => p.html).join('\n')}</body></html>`;
          const whole = readableText(html);
          expect(onlyWords(whole.text)).toEqual(pieces.flatMap((p) => p.words));
          expect(whole.title).toBe('T');
          const cap = Math.max(0, whole.text.length + d);
          const cut = readableText(html, cap);
          expect(cut.text.length).toBeLessThanOrEqual(cap);
          expect(whole.text.startsWith(cut.text)).toBe(true);
          if (cap >= whole.text.length) expect(cut.text).toBe(whole.text);
        }),
        { seed: FUZZ_SEED, numRuns: 500 },
      );
    },
    limit(120_000),
  );

  it(
    'hostile runs before, inside or after a page never throw, and keep the text and title to their caps',
    () => {
      fc.assert(
        fc.property(page, hostile, fc.constantFrom('before', 'inside', 'after'), fc.integer({ min: 0, max: 5000 }), (pieces, bad, where, cap) => {
          const body = pieces.map((p) => p.html).join('');
          const html = where === 'before' ? bad + body : where === 'after' ? body + bad : `<p>${body.slice(0, body.length >> 1)}${bad}${body.slice(body.length >> 1)}`;
          const r = readableText(`<title>${bad.slice(0, 3000)}</title>${html}`, cap);
          expect(r.text.length).toBeLessThanOrEqual(cap);
          expect(r.title.length).toBeLessThanOrEqual(1000);
          // What comes before the hostile run is read whatever follows it.
          if (where === 'after') expect(r.text.startsWith(readableText(body, cap).text)).toBe(true);
        }),
        { seed: FUZZ_SEED, numRuns: 150 },
      );
    },
    limit(120_000),
  );

  it(
    'the reader process answers as the function does, and reads at most MAX_PAGE_CHARS of a page',
    async () => {
      await fc.assert(
        fc.asyncProperty(page, hostile, fc.integer({ min: -3, max: 3 }), fc.integer({ min: 1, max: 200_000 }), async (pieces, bad, d, maxChars) => {
          const body = pieces.map((p) => p.html).join('');
          // A page whose last word ends on either side of MAX_PAGE_CHARS: cut there, the word is cut too.
          const last = ' w99999999';
          const fill = ' '.repeat(Math.max(0, MAX_PAGE_CHARS + d - body.length - bad.length - last.length - 3));
          const html = `${bad}<p>${body}${fill}${last}`;
          expect(html.length).toBe(MAX_PAGE_CHARS + d);
          const got = await readPage(html, { maxChars, timeoutMs: limit(30_000) });
          const want = readableText(html.slice(0, MAX_PAGE_CHARS), maxChars);
          expect(got).toEqual(want);
          // Where the page's markup lets its last word be read at all, the cut shows in it.
          if (readableText(html, maxChars).text.endsWith('w99999999')) expect(want.text.endsWith(d <= 0 ? 'w99999999' : 'w99999999'.slice(0, 9 - d))).toBe(true);
        }),
        // Plain pages ending past and short of the limit are always among the runs.
        { seed: FUZZ_SEED, numRuns: 8, examples: [[[], '', 2, 1000], [[], '', 0, 1000], [[], '<div>', 3, 50]] },
      );
    },
    limit(180_000),
  );
});
