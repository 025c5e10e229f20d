import { Tokenizer } from 'htmlparser2';

/**
 * The readable text of an HTML page, in one pass of a tokenizer (htmlparser2's, which keeps no
 * element stack): time and memory grow with the page's size, whatever its markup. Its Parser is
 * not used: it keeps the open elements in an array it shifts and searches on every tag, so 400 KB
 * of nested tags took seconds. Here each tag only moves a few counters.
 *
 * Scripts, styles, navigation and other chrome are dropped, the `<main>`/`<article>` text is
 * preferred when there is enough of it, block elements become line breaks, whitespace collapses
 * as a browser collapses it (kept inside `<pre>`), entities are decoded by the tokenizer.
 */

/** Elements whose content is never the page's text. */
const SKIP = new Set(['script', 'style', 'noscript', 'svg', 'template', 'iframe', 'nav', 'header', 'footer', 'aside', 'form', 'head', 'noembed', 'noframes', 'select', 'button']);
/** Elements that start and end a line. */
const BLOCK = new Set(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'tr', 'section', 'article', 'main', 'ul', 'ol', 'table', 'blockquote', 'pre', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'hr', 'address', 'details', 'summary']);
/** Block elements set apart by a blank line. */
const PARAGRAPH = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'table', 'blockquote', 'pre', 'dl']);
/** Elements with no closing tag: counting one as open would hide the rest of the page. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const MAX_TITLE = 1_000;
/** The main text must hold this many characters to be preferred over the whole body. */
const MAIN_MIN = 200;

/** Text written with whitespace collapsed on the way in, up to a cap (so a page of blanks cannot push its words past it). */
class TextOut {
  private readonly parts: string[] = [];
  length = 0;
  private space = false;
  private breaks = 0;
  full = false;

  constructor(private readonly cap: number) {}

  /** A line break before the next word (`2`: a blank line); breaks in a row count once. */
  lineBreak(n: 1 | 2 = 1): void {
    if (this.length) this.breaks = Math.max(this.breaks, n);
  }

  write(s: string, keepNewlines = false): void {
    let run = -1;
    for (let i = 0; i <= s.length; i++) {
      const c = i < s.length ? s.charCodeAt(i) : -1;
      // A no-break space is a space to a reader (and to the model reading the text).
      const ws = c === 32 || c === 9 || c === 10 || c === 12 || c === 13 || c === 11 || c === 0xa0;
      if (ws || c === -1) {
        if (run >= 0) {
          this.emit(s.slice(run, i));
          run = -1;
        }
        if (c === 10 && keepNewlines) this.lineBreak();
        else if (ws) this.space = true;
      } else if (run < 0) run = i;
      if (this.full) return;
    }
  }

  private emit(word: string): void {
    if (this.full) return;
    let sep = '';
    if (this.length) sep = this.breaks ? '\n'.repeat(this.breaks) : this.space ? ' ' : '';
    this.breaks = 0;
    this.space = false;
    let piece = sep + word;
    if (this.length + piece.length > this.cap) {
      piece = piece.slice(0, this.cap - this.length);
      this.full = true;
    }
    this.parts.push(piece);
    this.length += piece.length;
  }

  toString(): string {
    return this.parts.join('');
  }
}

export interface Readable {
  title: string;
  text: string;
}

/** `maxChars` bounds the text kept (the caller cuts to its own length after this). */
export function readableText(html: string, maxChars = 1_000_000): Readable {
  const body = new TextOut(maxChars);
  const main = new TextOut(maxChars);
  const title = new TextOut(MAX_TITLE);
  let skip = 0;
  let inMain = 0;
  let pre = 0;
  let inTitle = false;
  let titleDone = false;
  let opening = '';

  const open = (name: string) => {
    if (SKIP.has(name)) skip++;
    else if (name === 'title') inTitle = !titleDone;
    else if (name === 'main' || name === 'article') inMain++;
    else if (name === 'pre' || name === 'textarea') pre++;
    if (skip) return;
    if (name === 'br') return breakLine();
    if (name === 'li') {
      breakLine();
      text('- ');
    } else if (BLOCK.has(name)) breakLine(name);
  };
  const close = (name: string) => {
    if (SKIP.has(name)) {
      if (skip) skip--;
      return;
    }
    if (name === 'title' && inTitle) {
      inTitle = false;
      titleDone = true;
    } else if ((name === 'main' || name === 'article') && inMain) inMain--;
    else if ((name === 'pre' || name === 'textarea') && pre) pre--;
    if (skip) return;
    if (name === 'li' || name === 'br' || BLOCK.has(name)) breakLine(name);
  };
  const breakLine = (name = '') => {
    const n = PARAGRAPH.has(name) ? 2 : 1;
    body.lineBreak(n);
    if (inMain) main.lineBreak(n);
  };
  const text = (s: string) => {
    if (inTitle) return title.write(s);
    if (skip) return;
    body.write(s, pre > 0);
    if (inMain) main.write(s, pre > 0);
  };

  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname: (start, end) => {
        opening = html.slice(start, end).toLowerCase();
      },
      onopentagend: () => {
        open(opening);
        if (VOID.has(opening)) close(opening);
        opening = '';
      },
      // `<svg/>`, `<iframe/>`: opened and closed at once.
      onselfclosingtag: () => {
        open(opening);
        close(opening);
        opening = '';
      },
      onclosetag: (start, end) => close(html.slice(start, end).toLowerCase()),
      ontext: (start, end) => text(html.slice(start, end)),
      ontextentity: (cp) => text(String.fromCodePoint(cp)),
      onattribdata() {},
      onattribentity() {},
      onattribend() {},
      onattribname() {},
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  const mainText = main.toString();
  return { title: title.toString(), text: mainText.length > MAIN_MIN ? mainText : body.toString() };
}
