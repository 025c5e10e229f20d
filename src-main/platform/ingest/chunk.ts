/**
 * Splits extracted text into passages for full-text retrieval: about `target` characters each,
 * cut on paragraph, then sentence, then word boundaries, each passage starting with a short
 * overlap from the end of the previous one (so a phrase cut at a boundary is still found whole).
 * Streaming: `push` pieces as they are extracted, `end` once; memory stays O(passage size).
 */
export interface ChunkOptions {
  target?: number;
  max?: number;
  overlap?: number;
}

const SENTENCE_END = /(?<=[.!?;:。！？])\s+/u;

const ENDS = new Set(['.', '!', '?', '。', '！', '？']);

/**
 * Where the text after its last sentence end (an end mark, then white space) begins, or null.
 * A backwards scan: linear even on long runs with no sentence end at all, where a regex like
 * /[\s\S]*[.!?]\s/ backtracks quadratically (an 84 KB line of code or base64 took minutes).
 */
export function lastSentenceEnd(s: string): number | null {
  for (let i = s.length - 2; i >= 0; i--) if (ENDS.has(s[i]) && /\s/.test(s[i + 1])) return i + 2;
  return null;
}

/** Normalizes line endings and blank space without changing words. */
export function normalizeText(s: string): string {
  return s
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what goes
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ' ')
    .replace(/[ \t\u00a0]+\n/g, '\n')
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
    this.pending += normalizeText(text);
    // Work on whole paragraphs; keep the unfinished tail unless it grows large.
    const cut = this.pending.lastIndexOf('\n\n');
    if (cut >= 0) {
      this.paragraphs(this.pending.slice(0, cut));
      this.pending = this.pending.slice(cut + 2);
    }
    if (this.pending.length > this.max * 4) {
      const head = this.pending.slice(0, this.pending.length - this.max);
      const at = lastSentenceEnd(head) ?? head.length;
      this.paragraph(this.pending.slice(0, at));
      this.pending = this.pending.slice(at);
    }
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

  /** A run without sentence ends (tables, code, minified text): cut at spaces near the target. */
  private hardSplit(s: string): string[] {
    const out: string[] = [];
    let i = 0;
    while (s.length - i > this.max) {
      let end = s.lastIndexOf(' ', i + this.target);
      if (end <= i + this.target / 2) end = i + this.target;
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
