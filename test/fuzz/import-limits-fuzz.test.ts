/**
 * Property-based fuzzing of the archive import's streamed table reader (modules/archive/json-rows.ts)
 * around its limits: rows per table, JSON bytes per table and bytes of one row, each drawn on both
 * sides, with strings full of what the scanner must step over (braces, brackets, quotes, escapes,
 * multi-byte characters) and rows that cross the reader's 1 MB chunks. Oracle: the rows come out as
 * JSON.parse reads them, unless a limit is passed, when the refusal names the first limit the file
 * passes in reading order; damaged text is a BadArchiveError, never another error.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../api/helpers.js';
import { FUZZ_SEED } from './harness.js';
import { streamRows, type RowLimits } from '../../src-main/platform/modules/archive/json-rows.js';
import { BadArchiveError } from '../../src-main/platform/modules/archive/tar.js';
import { limit } from '../fixtures/until.js';

const MB = 1024 * 1024;
const dir = tempDir('agent-desk-import-fuzz-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Row = Record<string, string | number | boolean | null>;

/** Reads `text` as a table entry at a random offset inside a file (the entry never starts at 0 in a tar). */
function read(text: Buffer, limits: RowLimits, lead: number): { rows: Row[] } | { error: unknown } {
  const file = path.join(dir, 'table.bin');
  fs.writeFileSync(file, Buffer.concat([Buffer.alloc(lead, 0x78), text, Buffer.from('trailing bytes past the entry')]));
  const fd = fs.openSync(file, 'r');
  try {
    const rows: Row[] = [];
    streamRows(fd, { name: 'memories.json', offset: lead, size: text.length }, 'memories', limits, (r) => rows.push(r as Row));
    return { rows };
  } catch (error) {
    return { error };
  } finally {
    fs.closeSync(fd);
  }
}

/** What the reader must answer for these rows written as `texts` (each row's own JSON) joined by `seps`. */
function expected(rows: Row[], texts: string[], total: number, l: RowLimits): { rows: Row[] } | { message: string } {
  const mb = (n: number) => `${Math.round(n / MB)} MB`;
  if (total > l.maxBytes) return { message: `The archive's memories.json holds ${mb(total)} of JSON; an import reads at most ${mb(l.maxBytes)} per table.` };
  for (let i = 0; i < rows.length; i++) {
    if (Buffer.byteLength(texts[i]) > l.maxRowBytes) return { message: `The archive's memories.json holds a row larger than ${mb(l.maxRowBytes)}.` };
    if (i >= l.maxRows) return { message: `The archive's memories.json holds more than ${l.maxRows.toLocaleString('en-US')} rows; an import reads at most ${l.maxRows.toLocaleString('en-US')} per table.` };
  }
  return { rows };
}

/** Strings the scanner must step over without losing its place. */
const tricky = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('}', '{', ']', '[', '"', '\\', '\\"', '"}]', '{"a": 1}', '\\\\', '\u0000', 'é漢🧪', '\u2028', ',', '[{},{}]'),
);
const value = fc.oneof(tricky, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const row: fc.Arbitrary<Row> = fc.dictionary(fc.oneof(fc.constantFrom('id', 'memory', 'collection_id'), tricky), value, { maxKeys: 5 });
const blank = fc.constantFrom('', ' ', '\n', '\t', ' \r\n ');

describe('fuzz: archive tables read as streams, bounded', () => {
  it(
    'rows as JSON.parse reads them, or the refusal naming the first limit passed',
    () => {
      const seen = { read: 0, rows: 0, bytes: 0, row: 0 };
      fc.assert(
        fc.property(
          fc.array(row, { maxLength: 40 }),
          fc.array(blank, { minLength: 42, maxLength: 42 }),
          // Limits on both sides of what the drawn table holds: each of -2..+2 around its own count.
          fc.integer({ min: -2, max: 2 }),
          fc.integer({ min: -2, max: 2 }),
          fc.integer({ min: -2, max: 2 }),
          fc.integer({ min: 0, max: 3000 }),
          (rows, seps, dRows, dBytes, dRow, lead) => {
            const texts = rows.map((r) => JSON.stringify(r));
            const json = `${seps[0]}[${seps[1]}${texts.map((t, i) => t + seps[i + 2]).join(',')}]${seps[41]}`;
            const text = Buffer.from(json);
            const biggestRow = Math.max(0, ...texts.map((t) => Buffer.byteLength(t)));
            const limits = { maxRows: Math.max(0, rows.length + dRows), maxBytes: Math.max(0, text.length + dBytes), maxRowBytes: Math.max(0, biggestRow + dRow) };
            const got = read(text, limits, lead);
            const want = expected(rows, texts, text.length, limits);
            if ('rows' in want) {
              expect('rows' in got ? got.rows : got.error).toEqual(want.rows);
              seen.read++;
            } else {
              expect('error' in got ? (got.error as Error).message : got).toBe(want.message);
              expect((got as { error: unknown }).error).toBeInstanceOf(BadArchiveError);
              if (want.message.includes('of JSON')) seen.bytes++;
              else if (want.message.includes('row larger')) seen.row++;
              else seen.rows++;
            }
          },
        ),
        { seed: FUZZ_SEED, numRuns: 400 },
      );
      // Each side of each limit was reached.
      expect(seen.read).toBeGreaterThan(0);
      expect(seen.rows).toBeGreaterThan(0);
      expect(seen.bytes).toBeGreaterThan(0);
      expect(seen.row).toBeGreaterThan(0);
    },
    limit(120_000),
  );

  it(
    'a row that crosses the 1 MB read chunks comes out whole, and its size is counted across them',
    () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 4096 }), fc.integer({ min: 1, max: 3000 }), tricky, (before, length, tail) => {
          // The long row starts `before` bytes short of the first chunk's end.
          const pad = ' '.repeat(MB - before - 2);
          const long: Row = { memory: `${'}{"'.repeat(length)}${tail}` };
          const texts = [JSON.stringify({ id: 1 }), JSON.stringify(long), JSON.stringify({ id: 2, tail })];
          const json = `[${pad}${texts.join(',')}]`;
          const size = Buffer.byteLength(texts[1]);
          const fits = read(Buffer.from(json), { maxRows: 3, maxBytes: 4 * MB, maxRowBytes: size }, 0);
          expect(fits).toEqual({ rows: texts.map((t) => JSON.parse(t)) });
          const over = read(Buffer.from(json), { maxRows: 3, maxBytes: 4 * MB, maxRowBytes: size - 1 }, 0);
          expect((over as { error: Error }).error.message).toBe(`The archive's memories.json holds a row larger than ${Math.round((size - 1) / MB)} MB.`);
        }),
        { seed: FUZZ_SEED, numRuns: 25 },
      );
    },
    limit(120_000),
  );

  it(
    'damaged tables (cut, a byte changed or inserted) are refused as damaged or read as rows, never another error',
    () => {
      fc.assert(
        fc.property(fc.array(row, { minLength: 1, maxLength: 12 }), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('cut', 'change', 'insert'), (rows, at, byte, how) => {
          const text = Buffer.from(JSON.stringify(rows));
          const i = at % text.length;
          const damaged =
            how === 'cut' ? text.subarray(0, i) : how === 'change' ? Buffer.concat([text.subarray(0, i), Buffer.from([byte]), text.subarray(i + 1)]) : Buffer.concat([text.subarray(0, i), Buffer.from([byte]), text.subarray(i)]);
          const got = read(damaged, { maxRows: 100, maxBytes: MB, maxRowBytes: MB }, 7);
          if ('error' in got) expect(got.error).toBeInstanceOf(BadArchiveError);
          else {
            // Read whole: then it is JSON the reader accepts, and the rows are exactly JSON.parse's.
            expect(got.rows).toEqual(JSON.parse(damaged.toString('utf8')));
          }
        }),
        { seed: FUZZ_SEED, numRuns: 400 },
      );
    },
    limit(120_000),
  );
});
