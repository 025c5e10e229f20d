import { useEffect } from 'react';
import { useAgents } from '../../stores/agents';
import { useChat } from '../../stores/chat';
import { ErrorNote } from '../../components/ErrorNote';

/** The platform's session list (GET /api/sessions): the same wherever the user signs in. */
export function SessionList() {
  const { sessions, sessionsError, rootId, openSession, newSession, deleteSession, loadSessions, busy } = useChat();
  const agents = useAgents((s) => s.agents);
  useEffect(() => {
    void loadSessions();
  }, [loadSessions]);
  return (
    <aside className="sessions" aria-label="Sessions">
      <button type="button" className="btn btn-primary wide" onClick={newSession} disabled={busy}>
        New chat
      </button>
      <h2 className="section-title">Sessions</h2>
      <ErrorNote error={sessionsError} />
      {!sessions.length ? <p className="muted small">Your conversations appear here.</p> : null}
      <ul className="session-list">
        {sessions.map((s) => {
          const agent = agents.find((a) => a.id === s.agent_id);
          return (
            <li key={s.id} className={s.id === rootId ? 'active' : undefined} data-testid="session" data-session-id={s.id}>
              <button type="button" className="session-open" disabled={busy} aria-current={s.id === rootId ? 'true' : undefined} onClick={() => void openSession(s.id, agent)}>
                <span className="session-title">{s.title || 'Untitled'}</span>
                <span className="muted small">
                  {agent?.title ?? `Agent ${s.agent_id}`} · {s.turns} turn{s.turns === 1 ? '' : 's'}
                </span>
              </button>
              <button
                type="button"
                className="btn-icon"
                disabled={busy && s.id === rootId}
                aria-label={`Delete session ${s.title}`}
                title="Delete this session and its answers"
                onClick={() => confirm(`Delete the session "${s.title || 'Untitled'}" and its answers?`) && void deleteSession(s.id)}
              >
                ×
              </button>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
