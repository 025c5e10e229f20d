import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { ESTIMATE, offsetsOf, piecesOf, windowOf } from './turn-window';

/**
 * Turn heights as last drawn, by turn key, for this window's life: a conversation opened again
 * lays out as it was, so its kept scroll place lands on the same lines.
 */
const heights = new Map<string, number>();
const sizeOf = (key: string) => heights.get(key) ?? ESTIMATE;

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The window of a conversation's turns (see turn-window.ts) over `scroller`, whose content holds
 * `body` (the turns and the space of those not drawn). `following`: the view sits at the end and
 * stays there as turns grow. `keep`: turns drawn wherever the view is.
 */
export function useTurnWindow({ keys, scroller, body, following, keep }: { keys: string[]; scroller: RefObject<HTMLElement | null>; body: RefObject<HTMLElement | null>; following(): boolean; keep: number[] }) {
  const [measured, setMeasured] = useState(0);
  // `measured` says the heights changed.
  const offsets = useMemo(() => offsetsOf(keys, sizeOf), [keys, measured]);
  const offsetsRef = useRef(offsets);
  offsetsRef.current = offsets;
  const keepRef = useRef(keep);
  keepRef.current = keep;
  const followingRef = useRef(following);
  followingRef.current = following;
  const [drawn, setDrawn] = useState<number[]>(() => windowOf(offsets, null, 800, keep));

  /** Where the view is within the turns (null: at the end). */
  const viewTop = useCallback((): number | null => {
    const el = scroller.current;
    if (!el || followingRef.current()) return null;
    return el.scrollTop - (body.current?.offsetTop ?? 0);
  }, [scroller, body]);

  /** The window again for where the view is now; drawn again only if it changed. */
  const update = useCallback(() => {
    const next = windowOf(offsetsRef.current, viewTop(), scroller.current?.clientHeight || 800, keepRef.current);
    setDrawn((prev) => (same(prev, next) ? prev : next));
  }, [viewTop, scroller]);

  const keepSig = keep.join(' ');
  useLayoutEffect(update, [offsets, keepSig, update]);

  // Each drawn turn's height, once laid out and whenever it changes (Markdown drawn, an answer
  // growing, the window resized). A turn above the view that changes height would move the lines
  // being read: the view moves with it. Following the end, the view stays at the end.
  const observer = useMemo(
    () =>
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver((entries) => {
            const el = scroller.current;
            if (!el) return;
            let shift = 0;
            let changed = false;
            for (const e of entries) {
              const row = e.target as HTMLElement;
              const key = row.dataset.turnKey;
              if (!key || !row.isConnected) continue;
              const h = e.borderBoxSize?.[0]?.blockSize ?? row.getBoundingClientRect().height;
              const before = sizeOf(key);
              if (Math.abs(h - before) < 0.5) continue;
              heights.set(key, h);
              changed = true;
              if (row.offsetTop < el.scrollTop) shift += h - before;
            }
            if (!changed) return;
            if (followingRef.current()) el.scrollTop = el.scrollHeight;
            else if (shift) el.scrollTop += shift;
            setMeasured((m) => m + 1);
          }),
    [scroller],
  );
  useLayoutEffect(() => () => observer?.disconnect(), [observer]);

  /** A drawn turn's element: measured while it is drawn. */
  const measure = useCallback(
    (row: HTMLElement | null) => {
      if (!row || !observer) return;
      observer.observe(row);
      return () => observer.unobserve(row);
    },
    [observer],
  );

  /** Scrolls turn `i` to the middle of the view (drawn by the next frame). */
  const center = useCallback(
    (i: number) => {
      const el = scroller.current;
      const o = offsetsRef.current;
      if (!el || i < 0 || i >= o.length - 1) return;
      el.scrollTop = (body.current?.offsetTop ?? 0) + (o[i] + o[i + 1]) / 2 - el.clientHeight / 2;
      update();
    },
    [scroller, body, update],
  );

  return { pieces: piecesOf(offsets, drawn), drawn, update, measure, center };
}
