/**
 * Find in a conversation: where a query occurs in the text on screen, case and accents folded
 * (as the session search folds them: "acao" finds "ação"), as DOM ranges the page highlights.
 */

/** `text` folded for matching, with, per folded character, where the character it came from starts and ends in `text`. */
export function fold(text: string): { folded: string; from: number[]; to: number[] } {
  let folded = '';
  const from: number[] = [];
  const to: number[] = [];
  let i = 0;
  for (const ch of text) {
    const f = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    for (let k = 0; k < f.length; k++) {
      from.push(i);
      to.push(i + ch.length);
    }
    folded += f;
    i += ch.length;
  }
  return { folded, from, to };
}

/** Start and end (exclusive) offsets in `text` of every occurrence of `query`, not overlapping. */
export function occurrences(text: string, query: string): [number, number][] {
  const q = fold(query.trim()).folded;
  if (!q) return [];
  const { folded, from, to } = fold(text);
  const out: [number, number][] = [];
  for (let at = folded.indexOf(q); at !== -1; at = folded.indexOf(q, at + q.length)) out.push([from[at], to[at + q.length - 1]]);
  return out;
}

/** Every occurrence of `query` in the text under `root`, in reading order. */
export function findRanges(root: Node, query: string): Range[] {
  if (!query.trim()) return [];
  const ranges: Range[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    // Only what a person reads: not the find bar itself, hidden text or the screen-reader-only labels.
    acceptNode: (n) => (n.parentElement?.closest('[data-find-skip], .sr-only, script, style') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (const [start, end] of occurrences(n.nodeValue ?? '', query)) {
      const r = document.createRange();
      r.setStart(n, start);
      r.setEnd(n, end);
      ranges.push(r);
    }
  }
  return ranges;
}

/** Every occurrence of `query` in a drawn turn's messages (the elements marked data-find-text), in reading order. */
export function rangesInTurn(row: Element, query: string): Range[] {
  return [...row.querySelectorAll('[data-find-text]')].flatMap((el) => findRanges(el, query));
}

/**
 * Markdown as a person reads it once drawn (no marks, a link's words without its address), to
 * count a query's matches in turns out of the window, which are not drawn.
 */
export function readingText(markdown: string): string {
  return (
    markdown
      // code fences, images (their alternative text), links (their words), HTML tags
      .replace(/^ {0,3}(```|~~~).*$/gm, '')
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<\/?[a-z][^>]*>/gi, '')
      // a heading's, a quote's and a list item's marks; a table's rule and its bars
      .replace(/^ {0,3}(#{1,6} +|> ?|[-*+] +(\[[ xX]\] +)?|\d+[.)] +)/gm, '')
      .replace(/^ *\|?( *:?-+:? *\|)+( *:?-+:? *)?$/gm, '')
      .replace(/\|/g, ' ')
      // emphasis, strike-through and inline code marks
      .replace(/\*\*|__|~~|[*`]/g, '')
  );
}
