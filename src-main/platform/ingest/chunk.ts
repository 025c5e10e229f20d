/**
 * Splits extracted text into passages for full-text retrieval: about `target` characters each,
 * cut on paragraph, then sentence, then word boundaries, each passage starting with a short
 * overlap from the end of the previous one (so a phrase cut at a boundary is still found whole).
 * Streaming: `push` pieces as they are extracted, `end` once; memory stays O(passage size).
 */
import { trimEndOf } from '../kernel/trim.js';

export interface ChunkOptions {
  target?: number;
  max?: number;
  overlap?: number;
}

const SENTENCE_END = /(?<=[.!?;:。！？])\s+/u;

/** White space as `\s` sees it, by code unit (no regex, no string allocation per character). */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

const isEnd = (c: number) => c === 46 || c === 33 || c === 63 || c === 0x3002 || c === 0xff01 || c === 0xff1f; // . ! ? 。 ！ ？

/**
 * Where the text after its last sentence end (an end mark, then white space) begins, or null;
 * only ends at or after `min` count. A backwards scan: linear even on long runs with no sentence
 * end at all, where a regex like /[\s\S]*[.!?]\s/ backtracks quadratically (an 84 KB line of code
 * or base64 took minutes).
 */
export function lastSentenceEnd(s: string, min = 0): number | null {
  for (let i = s.length - 2; i >= min; i--) if (isEnd(s.charCodeAt(i)) && isSpace(s.charCodeAt(i + 1))) return i + 2;
  return null;
}

/** Normalizes line endings and blank space without changing words. */
export function normalizeText(s: string): string {
  return s
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what goes
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ' ')
    .split('\n')
    // Blank space before a line break, by scan (a regex for it rescans each run of blanks from
    // every start); the last piece has no break after it (yet: text arrives in pieces) and keeps its own.
    .map((line, i, lines) => (i < lines.length - 1 ? trimEndOf(line, ' \t\u00a0') : line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

export class Chunker {
  private readonly target: number;
  private readonly max: number;
  private readonly overlap: number;
  private pending = '';
  private current = '';
  private lastUnit = '';
  private hasNew = false;

  constructor(
    private readonly emit: (text: string) => void,
    opts: ChunkOptions = {},
  ) {
    this.target = opts.target ?? 1000;
    this.max = opts.max ?? Math.round(this.target * 1.25);
    this.overlap = opts.overlap ?? 150;
  }

  push(text: string): void {
    if (!text) return;
    // Only the new text (and the character before it) can hold a new paragraph break: scanning
    // the whole pending text on every push would be quadratic in the number of pushes.
    const from = Math.max(0, this.pending.length - 1);
    this.pending += normalizeText(text);
    let cut = -1;
    for (let j = this.pending.indexOf('\n\n', from); j >= 0; j = this.pending.indexOf('\n\n', j + 1)) cut = j;
    if (cut >= 0) {
      this.paragraphs(this.pending.slice(0, cut));
      this.pending = this.pending.slice(cut + 2);
    }
    // Keep the unfinished tail unless it grows large; then cut it near its end, at a sentence end
    // or a space found within one passage's length (a bounded search), else hard.
    if (this.pending.length > this.max * 4) {
      const end = this.pending.length - this.max;
      const at = lastSentenceEnd(this.pending.slice(0, end), end - this.target) ?? this.spaceBefore(this.pending, end) ?? end;
      this.paragraph(this.pending.slice(0, at));
      this.pending = this.pending.slice(at);
    }
  }

  /** The last space in (end - target/2, end], or null: never a scan back to the start of `s`. */
  private spaceBefore(s: string, end: number): number | null {
    const lo = end - this.target / 2;
    for (let j = end; j > lo; j--) if (s.charCodeAt(j) === 32) return j;
    return null;
  }

  end(): void {
    this.paragraphs(this.pending);
    this.pending = '';
    if (this.hasNew && this.current.trim()) this.emit(this.current.trim());
    this.current = '';
    this.hasNew = false;
  }

  private paragraphs(block: string): void {
    for (const p of block.split(/\n\s*\n/)) this.paragraph(p);
  }

  private paragraph(p: string): void {
    const text = p.trim();
    if (!text) return;
    if (text.length <= this.target) return this.unit(text, '\n\n');
    for (const sentence of text.split(SENTENCE_END)) {
      if (sentence.length <= this.max) this.unit(sentence, ' ');
      else for (const piece of this.hardSplit(sentence)) this.unit(piece, ' ');
    }
    this.lastSep = '\n\n';
  }

  private lastSep = '\n\n';

  /**
   * A run without sentence ends (tables, code, minified text): cut at a space near the target,
   * else hard. The space is looked for only within the second half of each piece, so the work is
   * linear in the run's length (a search back to the run's start made 8 MB without spaces take
   * seconds per megabyte, growing with the square of the size).
   */
  private hardSplit(s: string): string[] {
    const out: string[] = [];
    let i = 0;
    while (s.length - i > this.max) {
      const end = this.spaceBefore(s, i + this.target) ?? i + this.target;
      out.push(s.slice(i, end));
      i = end;
    }
    out.push(s.slice(i));
    return out.map((x) => x.trim()).filter(Boolean);
  }

  private unit(u: string, sep: string): void {
    const joiner = this.current ? this.lastSep : '';
    if (this.hasNew && this.current.length + joiner.length + u.length > this.target) {
      this.emit(this.current.trim());
      this.current = this.overlapOf(this.lastUnit);
      this.hasNew = false;
    }
    this.current += (this.current ? (this.hasNew ? joiner : ' ') : '') + u;
    this.hasNew = true;
    this.lastUnit = u;
    this.lastSep = sep;
  }

  /** The tail of the previous passage that opens the next one: its last unit if short, else its last words. */
  private overlapOf(u: string): string {
    if (this.overlap <= 0) return '';
    if (u.length <= this.overlap) return u;
    const tail = u.slice(u.length - this.overlap);
    const sp = tail.indexOf(' ');
    return sp >= 0 && sp < tail.length - 1 ? tail.slice(sp + 1) : tail;
  }
}

/** All passages of one text (tests and small inputs). */
export function chunkText(text: string, opts?: ChunkOptions): string[] {
  const out: string[] = [];
  const c = new Chunker((t) => out.push(t), opts);
  c.push(text);
  c.end();
  return out;
}
