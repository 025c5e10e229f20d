import fs from 'node:fs';
import { BadArchiveError, type TarIndexEntry } from './tar.js';

/**
 * An archive table (`<table>.json`, a JSON list of flat rows) read as a stream: the entry is read
 * from the tar in 1 MB chunks and each row is handed on as soon as its closing brace arrives, so
 * memory holds one row's text at a time, never the table's. The scanner only finds where each
 * row ends (strings and escapes tracked, bytes never decoded: UTF-8 continuation bytes are never
 * ASCII); each row is then parsed by JSON.parse alone. Limits per table: `maxRows` rows and
 * `maxBytes` of JSON; a single row at most `maxRowBytes`.
 */
export interface RowLimits {
  maxRows: number;
  maxBytes: number;
  maxRowBytes: number;
}

const CHUNK = 1024 * 1024;
const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const [LBRACKET, RBRACKET, LBRACE, RBRACE, COMMA, QUOTE, BACKSLASH] = [0x5b, 0x5d, 0x7b, 0x7d, 0x2c, 0x22, 0x5c];

const mb = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;
const count = (n: number) => n.toLocaleString('en-US');

/**
 * Calls `onRow(row, index)` for each row of the entry, in order; `onRow` may throw to stop. The
 * value must be a list of objects whose values are plain (string, number, boolean or null).
 */
export function streamRows(fd: number, e: TarIndexEntry, table: string, limits: RowLimits, onRow: (row: Record<string, unknown>, index: number) => void): void {
  const name = `${table}.json`;
  const bad = (message: string) => new BadArchiveError(message);
  if (e.size > limits.maxBytes) throw bad(`The archive's ${name} holds ${mb(e.size)} of JSON; an import reads at most ${mb(limits.maxBytes)} per table.`);
  const notJson = () => bad(`The archive is damaged (${name} is not JSON).`);

  // before: before the list; start: after '[' (a ']' may close it); next: after ','; after: after a row; done: after ']'
  let state: 'before' | 'start' | 'next' | 'after' | 'done' = 'before';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let parts: Buffer[] = [];
  let rowBytes = 0;
  let rows = 0;

  const finishRow = () => {
    const text = Buffer.concat(parts).toString('utf8');
    parts = [];
    rowBytes = 0;
    let row: unknown;
    try {
      row = JSON.parse(text);
    } catch {
      throw notJson();
    }
    if (rows >= limits.maxRows) throw bad(`The archive's ${name} holds more than ${count(limits.maxRows)} rows; an import reads at most ${count(limits.maxRows)} per table.`);
    for (const [k, x] of Object.entries(row as Record<string, unknown>)) {
      if (x !== null && typeof x === 'object') throw bad(`The archive is damaged (${name}: column ${k.slice(0, 60)} is not a plain value).`);
    }
    onRow(row as Record<string, unknown>, rows++);
  };

  const buf = Buffer.alloc(Math.min(CHUNK, Math.max(1, e.size)));
  let done = 0;
  while (done < e.size) {
    const n = fs.readSync(fd, buf, 0, Math.min(buf.length, e.size - done), e.offset + done);
    if (n <= 0) throw bad('The archive is incomplete.');
    done += n;
    let rowStart = depth > 0 ? 0 : -1;
    for (let i = 0; i < n; i++) {
      const c = buf[i];
      if (depth > 0) {
        if (inString) {
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) inString = false;
          continue;
        }
        if (c === QUOTE) inString = true;
        else if (c === LBRACE || c === LBRACKET) depth++;
        else if (c === RBRACE || c === RBRACKET) {
          if (--depth === 0) {
            const piece = buf.subarray(rowStart, i + 1);
            if ((rowBytes += piece.length) > limits.maxRowBytes) throw bad(`The archive's ${name} holds a row larger than ${mb(limits.maxRowBytes)}.`);
            parts.push(Buffer.from(piece));
            rowStart = -1;
            state = 'after';
            finishRow();
          }
        }
        continue;
      }
      if (WS.has(c)) continue;
      if (state === 'before') {
        if (c !== LBRACKET) throw c === LBRACE || c === QUOTE || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x74 || c === 0x66 || c === 0x6e ? bad(`The archive is damaged (${name} is not a list).`) : notJson();
        state = 'start';
      } else if (state === 'start' || state === 'next') {
        if (c === RBRACKET && state === 'start') state = 'done';
        else if (c === LBRACE) {
          depth = 1;
          rowStart = i;
        } else if (c === QUOTE || c === LBRACKET || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x74 || c === 0x66 || c === 0x6e) {
          throw bad(`The archive is damaged (${name} holds a value that is not a row).`);
        } else throw notJson();
      } else if (state === 'after') {
        if (c === COMMA) state = 'next';
        else if (c === RBRACKET) state = 'done';
        else throw notJson();
      } else throw notJson(); // anything after the list
    }
    if (depth > 0) {
      // The row goes on in the next chunk: keep its bytes so far (a copy: the buffer is reused).
      const piece = buf.subarray(rowStart, n);
      if ((rowBytes += piece.length) > limits.maxRowBytes) throw bad(`The archive's ${name} holds a row larger than ${mb(limits.maxRowBytes)}.`);
      parts.push(Buffer.from(piece));
    }
  }
  if (state !== 'done') throw notJson();
}
