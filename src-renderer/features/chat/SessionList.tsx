import { useEffect, useState } from 'react';
import { useChat } from '../../stores/chat';
import { ErrorNote } from '../../components/ErrorNote';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { Session } from '../../stores/sessions';
import { SessionItem, isWriting } from './SessionItem';

const WRITING_POLL_MS = 3000;

/** The platform's session list (GET /api/sessions): the same wherever the user signs in; searchable, paged. */
export function SessionList() {
  const { sessions, sessionsTotal, sessionsError, newSession, deleteSession, loadSessions } = useChat();
  const [query, setQuery] = useState('');
  const [doomed, setDoomed] = useState<Session | null>(null);
  useEffect(() => {
    // Searching as the user types, a moment after the last key.
    const t = setTimeout(() => void loadSessions({ query }), query ? 250 : 0);
    return () => clearTimeout(t);
  }, [query, loadSessions]);
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
      <ErrorNote error={sessionsError} />
      {!sessions.length ? <p className="muted small">{query ? 'No session matches.' : 'Your conversations appear here.'}</p> : null}
      <ul className="session-list">
        {sessions.map((s) => (
          <SessionItem key={s.id} session={s} onDelete={() => setDoomed(s)} />
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
