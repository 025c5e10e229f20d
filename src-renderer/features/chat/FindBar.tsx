import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { findRanges } from './find';
import { useT } from '../../i18n';
import './find.css';

/** The page's highlights of the matches and of the current one (CSS Custom Highlight API). */
const MATCH = 'find-match';
const CURRENT = 'find-current';

function paint(ranges: Range[], current: number): void {
  if (typeof CSS === 'undefined' || !('highlights' in CSS)) return;
  CSS.highlights.set(MATCH, new Highlight(...ranges));
  if (ranges[current]) CSS.highlights.set(CURRENT, new Highlight(ranges[current]));
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

/**
 * Find in the open conversation (Ctrl+F / Cmd+F): every match highlighted, the current one marked
 * and scrolled into view; Enter or ↓ for the next, Shift+Enter or ↑ for the previous, Esc closes
 * and gives focus back.
 */
export function FindBar({ scroller, query, setQuery, onClose, version }: { scroller: RefObject<HTMLElement | null>; query: string; setQuery(q: string): void; onClose(): void; version: unknown }) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const [ranges, setRanges] = useState<Range[]>([]);
  const [current, setCurrent] = useState(0);
  // Text that arrives after a render (a streaming answer, Markdown drawn late) is searched too.
  const [drawn, setDrawn] = useState(0);
  useEffect(() => {
    const root = scroller.current;
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
  }, [scroller]);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  // The matches again whenever the query or the conversation's text changes.
  useEffect(() => {
    const root = scroller.current;
    const found = root ? findRanges(root, query) : [];
    setRanges(found);
    setCurrent((c) => (c < found.length ? c : 0));
  }, [query, version, drawn, scroller]);

  useEffect(() => {
    paint(ranges, current);
    if (ranges[current] && scroller.current) reveal(ranges[current], scroller.current);
  }, [ranges, current, scroller]);

  useEffect(() => unpaint, []);

  const step = useCallback((by: number) => setCurrent((c) => (ranges.length ? (c + by + ranges.length) % ranges.length : 0)), [ranges.length]);

  const count = !query.trim() ? '' : ranges.length ? t('chat.find.count', { current: current + 1, total: ranges.length }) : t('chat.find.none');
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
      <button type="button" className="btn btn-small btn-ghost" aria-label={t('chat.find.previous')} disabled={ranges.length < 2} onClick={() => step(-1)}>
        ↑
      </button>
      <button type="button" className="btn btn-small btn-ghost" aria-label={t('chat.find.next')} disabled={ranges.length < 2} onClick={() => step(1)}>
        ↓
      </button>
      <button type="button" className="btn btn-small btn-ghost" aria-label={t('chat.find.close')} onClick={onClose}>
        ✕
      </button>
    </div>
  );
}
