import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { occurrences, rangesInTurn, readingText } from './find';
import type { Turn } from '../../stores/conversation';
import type { ConversationHandle } from './ConversationList';
import { useT } from '../../i18n';
import './find.css';

/** The page's highlights of the matches and of the current one (CSS Custom Highlight API). */
const MATCH = 'find-match';
const CURRENT = 'find-current';

function paint(ranges: Range[], current: Range | undefined): void {
  if (typeof CSS === 'undefined' || !('highlights' in CSS)) return;
  CSS.highlights.set(MATCH, new Highlight(...ranges));
  if (current) CSS.highlights.set(CURRENT, new Highlight(current));
  else CSS.highlights.delete(CURRENT);
}

function unpaint(): void {
  if (typeof CSS === 'undefined' || !('highlights' in CSS)) return;
  CSS.highlights.delete(MATCH);
  CSS.highlights.delete(CURRENT);
}

/** Scrolls the match into the middle of `scroller` (the conversation), not the whole window. */
function reveal(range: Range, scroller: HTMLElement): void {
  const r = range.getBoundingClientRect();
  const box = scroller.getBoundingClientRect();
  if (r.top >= box.top + 24 && r.bottom <= box.bottom - 24) return;
  scroller.scrollTop += r.top - box.top - box.height / 2;
}

/** A turn's messages as read, cached by turn (a turn object changes when its text does). */
const readCache = new WeakMap<Turn, string>();
function readOf(turn: Turn): string {
  let text = readCache.get(turn);
  if (text === undefined) readCache.set(turn, (text = `${turn.user}\n${readingText(turn.output)}`));
  return text;
}

/**
 * Find in the open conversation (Ctrl+F / Cmd+F): every match highlighted, the current one marked
 * and scrolled into view; Enter or ↓ for the next, Shift+Enter or ↑ for the previous, Esc closes
 * and gives focus back. The list draws only the turns near the view: matches are counted in the
 * turns' text, and the current one's turn is brought into view (and so drawn) to mark it.
 */
export function FindBar({ list, turns, query, setQuery, onClose }: { list: RefObject<ConversationHandle | null>; turns: Turn[]; query: string; setQuery(q: string): void; onClose(): void }) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const [current, setCurrent] = useState(0);
  // The drawn turns change as the view moves and as text arrives (a streaming answer, Markdown drawn late).
  const [drawn, setDrawn] = useState(0);
  useEffect(() => {
    const root = list.current?.scroller();
    if (!root) return;
    let frame = 0;
    const seen = new MutationObserver((records) => {
      if (records.every((r) => (r.target instanceof Element ? r.target : r.target.parentElement)?.closest('[data-find-skip]'))) return;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setDrawn((n) => n + 1));
    });
    seen.observe(root, { subtree: true, childList: true, characterData: true });
    return () => {
      cancelAnimationFrame(frame);
      seen.disconnect();
    };
  }, [list]);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  // Matches per turn in its text (every turn, drawn or not).
  const counted = useMemo(() => (query.trim() ? turns.map((turn) => occurrences(readOf(turn), query).length) : []), [turns, query]);
  // The drawn turns' matches as ranges on the page, by turn.
  const [ranges, setRanges] = useState<Map<number, Range[]>>(new Map());
  useEffect(() => {
    const root = list.current?.scroller();
    const found = new Map<number, Range[]>();
    if (root && query.trim()) for (const row of root.querySelectorAll<HTMLElement>('[data-turn-index]')) found.set(Number(row.dataset.turnIndex), rangesInTurn(row, query));
    setRanges(found);
  }, [query, turns, drawn, list]);
  // Every match in reading order: a drawn turn's as drawn, another's as its text counts them.
  const matches = useMemo(() => {
    const out: { turn: number; k: number }[] = [];
    counted.forEach((n, turn) => {
      const shown = ranges.get(turn)?.length ?? n;
      for (let k = 0; k < shown; k++) out.push({ turn, k });
    });
    return out;
  }, [counted, ranges]);
  const at = current < matches.length ? current : 0;

  // The current match marked, and scrolled into view once each time it becomes the current one
  // (not again when the person scrolls on and other turns are drawn); out of the window, its turn
  // is brought into view first, which draws it.
  const revealed = useRef('');
  const brought = useRef('');
  useEffect(() => {
    const m = matches[at];
    const range = m ? ranges.get(m.turn)?.[m.k] : undefined;
    paint([...ranges.values()].flat(), range);
    const scroller = list.current?.scroller();
    if (!m || !scroller) return;
    const target = `${query}\u0000${m.turn} ${m.k}`;
    if (range) {
      if (revealed.current !== target) reveal(range, scroller);
      revealed.current = target;
    } else if (brought.current !== target) {
      brought.current = target;
      list.current?.reveal(m.turn);
    }
  }, [matches, at, ranges, list, query]);

  useEffect(() => unpaint, []);

  const step = useCallback((by: number) => setCurrent((c) => (matches.length ? (Math.min(c, matches.length - 1) + by + matches.length) % matches.length : 0)), [matches.length]);

  const count = !query.trim() ? '' : matches.length ? t('chat.find.count', { current: at + 1, total: matches.length }) : t('chat.find.none');
  return (
    <div className="find-bar" role="search" aria-label={t('chat.find.label')} data-find-skip data-testid="find-bar">
      <label className="sr-only" htmlFor="find-input">
        {t('chat.find.label')}
      </label>
      <input
        id="find-input"
        ref={input}
        type="text"
        value={query}
        placeholder={t('chat.find.label')}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            step(e.key === 'ArrowUp' || (e.key === 'Enter' && e.shiftKey) ? -1 : 1);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onClose();
          }
        }}
      />
      <span className="find-count small muted" role="status" aria-live="polite" data-testid="find-count">
        {count}
      </span>
      <button type="button" className="btn btn-small btn-ghost" aria-label={t('chat.find.previous')} disabled={matches.length < 2} onClick={() => step(-1)}>
        ↑
      </button>
      <button type="button" className="btn btn-small btn-ghost" aria-label={t('chat.find.next')} disabled={matches.length < 2} onClick={() => step(1)}>
        ↓
      </button>
      <button type="button" className="btn btn-small btn-ghost" aria-label={t('chat.find.close')} onClick={onClose}>
        ✕
      </button>
    </div>
  );
}
