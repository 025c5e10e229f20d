import { useEffect, useState } from 'react';
import { deleteSession } from '../../stores/chat';
import { useConversation } from '../../stores/conversation';
import { ErrorNote } from '../../components/ErrorNote';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useSessions, type Session } from '../../stores/sessions';
import { SessionItem, isWriting } from './SessionItem';
import { useChatPrefs } from './prefs';
import { titleNumbers } from './session-dates';
import { useNow } from './use-now';
import './session-list.css';

const WRITING_POLL_MS = 3000;
/** Relative dates ("2 min ago") are re-read this often. */
const DATES_EVERY_MS = 30_000;

/**
 * The platform's session list (GET /api/sessions): the same wherever the user signs in; searchable,
 * paged; each with when it was last active, a number where titles repeat, and a badge when a
 * schedule started it. "Hide scheduled" (remembered) leaves those out.
 */
export function SessionList() {
  const { sessions, sessionsTotal, sessionsError, loadSessions } = useSessions();
  const newSession = useConversation((s) => s.newSession);
  const { hideScheduled, setHideScheduled } = useChatPrefs();
  const [query, setQuery] = useState('');
  const [doomed, setDoomed] = useState<Session | null>(null);
  const now = useNow(true, DATES_EVERY_MS);
  const numbers = titleNumbers(sessions);
  useEffect(() => {
    // Searching as the user types, a moment after the last key.
    const t = setTimeout(() => void loadSessions({ query }), query ? 250 : 0);
    return () => clearTimeout(t);
  }, [query, loadSessions, hideScheduled]);
  const writing = sessions.some(isWriting);
  useEffect(() => {
    // Answers run on in sessions not open here: re-read the list until they have ended.
    if (!writing) return;
    const t = setTimeout(() => void loadSessions(), WRITING_POLL_MS);
    return () => clearTimeout(t);
  }, [writing, sessions, loadSessions]);
  return (
    <aside className="sessions" aria-label="Sessions">
      <button type="button" className="btn btn-primary wide" onClick={newSession}>
        New chat
      </button>
      <h2 className="section-title">Sessions</h2>
      <label className="sr-only" htmlFor="session-search">
        Search sessions
      </label>
      <input id="session-search" type="search" className="session-search" placeholder="Search sessions…" value={query} onChange={(e) => setQuery(e.target.value)} data-testid="session-search" />
      <label className="check small session-hide-scheduled">
        <input type="checkbox" checked={hideScheduled} onChange={(e) => setHideScheduled(e.target.checked)} data-testid="hide-scheduled" /> Hide scheduled
      </label>
      <ErrorNote error={sessionsError} />
      {!sessions.length ? <p className="muted small">{query ? 'No session matches.' : hideScheduled ? 'No sessions besides scheduled ones.' : 'Your conversations appear here.'}</p> : null}
      <ul className="session-list">
        {sessions.map((s) => (
          <SessionItem key={s.id} session={s} number={numbers.get(s.id) ?? null} now={now} onDelete={() => setDoomed(s)} />
        ))}
      </ul>
      {sessions.length < sessionsTotal ? (
        <button type="button" className="btn btn-small wide" onClick={() => void loadSessions({ more: true })} data-testid="more-sessions">
          Show more ({sessionsTotal - sessions.length} older)
        </button>
      ) : null}
      <ConfirmDialog
        open={!!doomed}
        title="Delete this session?"
        confirmLabel="Delete"
        danger
        onCancel={() => setDoomed(null)}
        onConfirm={() => {
          if (doomed) void deleteSession(doomed.id);
          setDoomed(null);
        }}
      >
        <p>
          “{doomed?.title || 'Untitled'}” and its answers are removed. This cannot be undone.
        </p>
      </ConfirmDialog>
    </aside>
  );
}
