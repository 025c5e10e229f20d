/**
 * The tokenizer holds o200k's ranks in typed arrays keyed by UTF-8 bytes, built from the library's
 * rank file in steps (engine/compact-ranks.ts), and counts on the calling thread (engine/bpe-count.ts): every piece of the library's list is
 * found with the rank the library's own lookup gives it, and counts equal the library's on prose,
 * code, accents, CJK, emoji, made-up words, byte order marks, lone surrogates and special-token
 * texts (counted as the ordinary text a model receives them as).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRankTables, CompactRanks } from '../../src-main/platform/engine/compact-ranks.js';
import { CHUNK_CHARS, countTokensSync, tokenCounter, tokenizerMemory } from '../../src-main/platform/engine/tokens.js';

type Core = { bytePairRankDecoder: (string | number[] | undefined)[]; getBpeRankFromBytes(b: Uint8Array): number | undefined; bytePairStringRankEncoder: Map<string, number> };
type Library = { countTokens(t: string, o?: { disallowedSpecial: Set<string> }): number; default: { bytePairEncodingCoreProcessor: Core } };
const load = createRequire(import.meta.url);
const library = load('gpt-tokenizer') as Library;
/** The library's count of a text as a model receives it (special-token texts as ordinary text). */
const libraryCount = (t: string) => library.countTokens(t, { disallowedSpecial: new Set() });

const TEXTS = [
  'The quick brown fox jumps over the lazy dog.',
  'function add(a: number, b: number): number {\n  return a + b; // sum\n}\n',
  'Você já viu as configurações? Ação, coração, naïve café, Größe, façade.',
  '日本語のテキストと中文文本，还有한국어 텍스트。',
  'Emoji 🎉🚀👩‍💻 and flags 🇧🇷🇺🇸, math ∑∫√∞, arrows → ⇒.',
  Array.from({ length: 300 }, (_, i) => `zq${i.toString(36)}xv${(i * 7919).toString(36)}`).join(' '),
  '   leading spaces\t\ttabs\r\nand\n\n\nnewlines   ',
  '1234567890 3.14159 1e-9 0xFF 2026-11-29T04:00:00Z',
  // Pieces the library lists as bytes that are valid UTF-8 (a byte order mark first): it finds them as the text after the mark.
  '\ufeffusing namespace std;\n\ufeff\n\n\ufeff// \ufeff# \ufeff\ufeff 출장안마 \ufeff출장안마',
  // A lone surrogate is never a piece whole; special-token texts are text.
  'x\ud800y \udc00 \ud83d <|endoftext|> <|im_start|>user<|im_sep|>',
];

describe('compact ranks', () => {
  it('find every piece of the library’s list with the rank the library’s own lookup gives, and nothing else', () => {
    const core = library.default.bytePairEncodingCoreProcessor;
    const list = core.bytePairRankDecoder;
    expect(list.length).toBeGreaterThan(150_000);
    // Built from the library's rank file, in steps: the event loop turns between them.
    const steps = buildRankTables(fs.readFileSync(load.resolve('gpt-tokenizer/data/o200k_base.tiktoken'), 'latin1'));
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    expect(yields).toBeGreaterThan(2 * Math.floor(list.length / 512) - 2);
    const compact = new CompactRanks(step.value);
    const encoder = new TextEncoder();
    let checked = 0;
    for (let r = 0; r < list.length; r++) {
      const v = list[r];
      if (v === undefined) continue;
      const bytes = typeof v === 'string' ? encoder.encode(v) : Uint8Array.from(v);
      const want = core.getBpeRankFromBytes(bytes) ?? -1;
      if (compact.libraryRank(bytes, 0, bytes.length) !== want) expect([r, compact.libraryRank(bytes, 0, bytes.length)]).toEqual([r, want]);
      if (typeof v === 'string' && compact.rank(bytes, 0, bytes.length) !== core.bytePairStringRankEncoder.get(v)) expect([r, compact.rank(bytes, 0, bytes.length)]).toEqual([r, r]);
      checked++;
    }
    expect(checked).toBe(list.length);
    for (const other of ['', 'zqxvzqxvzqxv', ' the the the', '🎉🎉🎉🎉', 'x'.repeat(300)]) {
      const bytes = encoder.encode(other);
      expect(compact.libraryRank(bytes, 0, bytes.length)).toBe(core.getBpeRankFromBytes(bytes) ?? -1);
    }
    // ~4 MB where the library's Map, strings and lists held ~25 MB of heap.
    expect(compact.byteLength).toBeLessThan(6 * 1024 * 1024);
  });

  it('counts as the library does, on the calling thread', async () => {
    await tokenCounter();
    expect(tokenizerMemory()!.tableBytes).toBeLessThan(6 * 1024 * 1024);
    for (const t of TEXTS) expect([t, countTokensSync(t)]).toEqual([t, libraryCount(t)]);
  });

  it('counts any text of mixed scripts, marks and surrogates as the library does', async () => {
    await tokenCounter();
    const unit = fc.constantFrom('a', 'b', 'Z', ' ', '  ', '\n', '\r\n', '\t', 'é', 'ß', '中', '한', '😀', '🇧', '\u200d', '\u0301', '\ufeff', '\ud800', '\udc00', "'s", "'LL", '1', '42', '.', '//', '<|endoftext|>', 'the', ' the', 'ing');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 200 }), (s) => {
        // Within one piece, as bounded counts hand texts to the counter.
        fc.pre(s.length <= CHUNK_CHARS);
        expect(countTokensSync(s)).toBe(libraryCount(s));
      }),
      { numRuns: 3000 },
    );
    // Long pre-tokens (runs without spaces, CJK, emoji): merged through the heap, not the scan.
    const run = fc.constantFrom('a', 'b', 'Z', 'é', 'ß', '中', '文', '한', '😀', '🇧', '\u0301', '\ufeff', '\ud800', 'q', 'x', 'ing');
    fc.assert(
      fc.property(fc.string({ unit: run, minLength: 30, maxLength: 1000 }), (s) => {
        fc.pre(s.length <= CHUNK_CHARS);
        expect(countTokensSync(s)).toBe(libraryCount(s));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (s) => {
        fc.pre(s.length <= CHUNK_CHARS);
        expect(countTokensSync(s)).toBe(libraryCount(s));
      }),
      { numRuns: 1000 },
    );
  });
});
