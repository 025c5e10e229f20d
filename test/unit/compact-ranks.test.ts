/**
 * The tokenizer thread holds o200k's ranks in typed arrays (engine/compact-ranks.ts) instead of the
 * library's Map of strings: the same rank for every piece, none for what is not a piece, and the
 * thread's counts equal the library's own on prose, code, accents, CJK, emoji and made-up words.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { CompactRanks } from '../../src-main/platform/engine/compact-ranks.js';
import { countTokensSync, tokenCounter } from '../../src-main/platform/engine/tokens.js';

type Library = { countTokens(t: string): number; default: { bytePairEncodingCoreProcessor: { bytePairStringRankEncoder: Map<string, number> } } };
const library = createRequire(import.meta.url)('gpt-tokenizer') as Library;

describe('compact ranks', () => {
  it('answer every piece of the library’s table with its rank, and nothing else', () => {
    const map = library.default.bytePairEncodingCoreProcessor.bytePairStringRankEncoder;
    expect(map).toBeInstanceOf(Map);
    expect(map.size).toBeGreaterThan(150_000);
    const compact = new CompactRanks(map);
    expect(compact.size).toBe(map.size);
    for (const [piece, rank] of map) if (compact.get(piece) !== rank) expect(compact.get(piece)).toBe(rank);
    for (const other of ['', 'zqxvzqxvzqxv', ' the the the', '🎉🎉🎉🎉', 'x'.repeat(300)]) expect(compact.get(other)).toBe(map.get(other));
  });

  it('the thread counts as the library does', async () => {
    await tokenCounter();
    const texts = [
      'The quick brown fox jumps over the lazy dog.',
      'function add(a: number, b: number): number {\n  return a + b; // sum\n}\n',
      'Você já viu as configurações? Ação, coração, naïve café, Größe, façade.',
      '日本語のテキストと中文文本，还有한국어 텍스트。',
      'Emoji 🎉🚀👩‍💻 and flags 🇧🇷🇺🇸, math ∑∫√∞, arrows → ⇒.',
      Array.from({ length: 400 }, (_, i) => `zq${i.toString(36)}xv${(i * 7919).toString(36)}`).join(' '),
      '   leading spaces\t\ttabs\r\nand\n\n\nnewlines   ',
      '1234567890 3.14159 1e-9 0xFF 2026-11-29T04:00:00Z',
    ];
    for (const t of texts) expect(countTokensSync(t)).toBe(library.countTokens(t));
  });
});
