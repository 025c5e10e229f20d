import { useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import { useConversation, type Turn } from '../../stores/conversation';
import { TurnView } from './TurnView';
import { JumpToLatest } from './JumpToLatest';
import { useTurnWindow } from './use-turn-window';
import { useT } from '../../i18n';
import { draftKey } from '../../stores/drafts';
import { scrollPlaces } from '../../stores/places';

/** What the find bar needs of the list: its scroller, the drawn turns, and a way to bring one into view. */
export interface ConversationHandle {
  scroller(): HTMLElement | null;
  /** turn `i`'s element while it is drawn (null when it is out of the window) */
  row(i: number): HTMLElement | null;
  /** scrolls turn `i` to the middle of the view, drawing it */
  reveal(i: number): void;
}

/**
 * The open conversation's turns, drawn as a window over them (only those near the view, see
 * turn-window.ts): it follows the end while an answer grows unless the person scrolled up, offers
 * "Jump to latest" then, and keeps where each conversation was read when the person comes back.
 */
export function ConversationList({ turns, finding, empty, handle }: { turns: Turn[]; finding: boolean; empty: ReactNode; handle: Ref<ConversationHandle> }) {
  const t = useT();
  const loadingSession = useConversation((s) => s.loadingSession);
  const sentSeq = useConversation((s) => s.sentSeq);
  const rootId = useConversation((s) => s.rootId);
  const editing = useConversation((s) => s.editing);
  const list = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  /** The list's scrollTop at its last scroll event: only a move up is the user leaving the end. */
  const lastTop = useRef(0);
  const [away, setAway] = useState(false);
  const awayRef = useRef(away);
  awayRef.current = away;
  /** The turn holding focus stays drawn (a scroll must not drop focus to the page). */
  const [focused, setFocused] = useState(-1);

  const keys = useKeys(turns);
  // Always drawn: the newest turn (it speaks to screen readers as it is written, and its Read
  // aloud owns the shortcut), the one whose message is being edited, the one holding focus.
  const keep = [turns.length - 1, turns.findIndex((x) => x.key === editing), focused];
  /**
   * Whether the view still follows the end. A scroll up whose event has not run yet (a click can
   * arrive first) already counts: snapping back then would move what the pointer is pressing.
   */
  const following = () => {
    const el = list.current;
    if (stick.current && el && el.scrollTop < lastTop.current - 1 && el.scrollHeight - el.scrollTop - el.clientHeight >= 48) stick.current = false;
    return stick.current;
  };
  const win = useTurnWindow({ keys, scroller: list, body, following, keep });

  useImperativeHandle(
    handle,
    () => ({
      scroller: () => list.current,
      row: (i) => body.current?.querySelector<HTMLElement>(`:scope > [data-turn-index="${i}"]`) ?? null,
      reveal: (i) => {
        stick.current = false;
        setAway(true);
        win.center(i);
      },
    }),
    [win.center],
  );

  const toEnd = () => {
    stick.current = true;
    setAway(false);
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
    win.update();
  };

  // Following the end: after every change of what is drawn (a new turn, an answer growing, heights
  // measured), the view goes back to the end, before the frame is painted.
  useLayoutEffect(() => {
    if (following() && list.current) list.current.scrollTop = list.current.scrollHeight;
  });

  // Back on a conversation read before (another screen, another chat): where it was left.
  const placeKey = draftKey(rootId);
  const restored = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (loadingSession || !turns.length || restored.current === placeKey || !list.current) return;
    restored.current = placeKey;
    const place = scrollPlaces.get(placeKey);
    if (!place || place.atEnd) return toEnd();
    stick.current = false;
    setAway(true);
    list.current.scrollTop = place.top;
    lastTop.current = place.top;
    win.update();
  }, [placeKey, loadingSession, turns.length]);

  // The message just sent always comes into view, wherever the user had scrolled.
  useEffect(() => {
    if (sentSeq) toEnd();
  }, [sentSeq]);

  return (
    <div className="turns-wrap">
      <div
        className="turns"
        ref={list}
        aria-busy={loadingSession}
        data-testid="turns"
        onScroll={(e) => {
          const el = e.currentTarget;
          const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
          const movedUp = el.scrollTop < lastTop.current;
          lastTop.current = el.scrollTop;
          // Following the end, the list can fall short of it without the user scrolling up (a turn
          // laid out taller than its estimate, Jump to latest leaving the flow): follow it again.
          // Not while finding: the find bar scrolls to its match, and one coalesced scroll event
          // may not read as a move up.
          if (stick.current && !atEnd && !movedUp && !finding) {
            el.scrollTop = el.scrollHeight;
            return;
          }
          stick.current = atEnd;
          // Drawn again only when it changes (scroll events come every frame).
          if (awayRef.current === atEnd) setAway(!atEnd);
          if (restored.current === placeKey) scrollPlaces.set(placeKey, { top: el.scrollTop, atEnd: stick.current });
          win.update();
        }}
        onFocus={(e) => setFocused(indexOf(e.target))}
        onBlur={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(-1);
        }}
      >
        {loadingSession ? <p className="muted">{t('chat.screen.loading')}</p> : null}
        {!turns.length && !loadingSession ? empty : null}
        <div className="turns-body" ref={body}>
          {win.pieces.map((p) =>
            'gap' in p ? (
              <div key={`gap-${p.gap}`} className="turns-gap" style={{ height: p.height }} aria-hidden="true" />
            ) : (
              <div
                key={turns[p.turn].key}
                ref={win.measure}
                className="turn-row"
                data-turn-key={turns[p.turn].key}
                data-turn-index={p.turn}
                aria-live={p.turn === turns.length - 1 ? 'polite' : undefined}
              >
                <TurnView turn={turns[p.turn]} />
              </div>
            ),
          )}
        </div>
      </div>
      <JumpToLatest visible={away && turns.length > 0} onJump={toEnd} />
    </div>
  );
}

/** The turns' keys, the same array while they are the same (an answer growing keeps its key). */
function useKeys(turns: Turn[]): string[] {
  const memo = useRef<string[]>([]);
  const prev = memo.current;
  if (prev.length !== turns.length || turns.some((x, i) => x.key !== prev[i])) memo.current = turns.map((x) => x.key);
  return memo.current;
}

/** The index of the drawn turn holding `el`, -1 outside any. */
function indexOf(el: EventTarget | null): number {
  const row = el instanceof Element ? el.closest<HTMLElement>('[data-turn-index]') : null;
  return row ? Number(row.dataset.turnIndex) : -1;
}
