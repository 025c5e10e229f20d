import { useAgents } from '../../stores/agents';
import { useChat } from '../../stores/chat';

export function SessionList() {
  const { sessions, rootId, openSession, newSession, forgetSession, busy } = useChat();
  const agents = useAgents((s) => s.agents);
  return (
    <aside className="sessions" aria-label="Sessions">
      <button type="button" className="btn btn-primary wide" onClick={newSession} disabled={busy}>
        New chat
      </button>
      <h2 className="section-title">Sessions</h2>
      {!sessions.length ? <p className="muted small">Your conversations appear here.</p> : null}
      <ul className="session-list">
        {sessions.map((s) => {
          const agent = agents.find((a) => a.id === s.agentId);
          return (
            <li key={s.rootId} className={s.rootId === rootId ? 'active' : undefined}>
              <button type="button" className="session-open" disabled={busy} aria-current={s.rootId === rootId ? 'true' : undefined} onClick={() => void openSession(s.rootId, agent)}>
                <span className="session-title">{s.title || 'Untitled'}</span>
                <span className="muted small">
                  {agent?.title ?? `Agent ${s.agentId}`} · {s.turns.length} turn{s.turns.length === 1 ? '' : 's'}
                </span>
              </button>
              <button type="button" className="btn-icon" aria-label={`Forget session ${s.title}`} title="Remove from this list" onClick={() => forgetSession(s.rootId)}>
                ×
              </button>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
