import { useState } from 'react';
import { useAgents } from '../../stores/agents';
import { useChat } from '../../stores/chat';
import type { Session } from '../../stores/sessions';

/** One session in the list: open it, rename it in place, or delete it. */
export function SessionItem({ session: s, onDelete }: { session: Session; onDelete(): void }) {
  const { rootId, openSession, renameSession, busy } = useChat();
  const agent = useAgents((st) => st.agents.find((a) => a.id === s.agent_id));
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(s.title);
  const active = s.id === rootId;
  return (
    <li className={active ? 'active' : undefined} data-testid="session" data-session-id={s.id}>
      {renaming ? (
        <form
          className="session-rename"
          onSubmit={(e) => {
            e.preventDefault();
            setRenaming(false);
            if (title.trim() && title.trim() !== s.title) void renameSession(s.id, title);
          }}
        >
          <label className="sr-only" htmlFor={`rename-${s.id}`}>
            Session title
          </label>
          <input
            id={`rename-${s.id}`}
            value={title}
            autoFocus
            maxLength={200}
            onChange={(e) => setTitle(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && (e.preventDefault(), setRenaming(false))}
            onBlur={(e) => e.currentTarget.form?.requestSubmit()}
          />
        </form>
      ) : (
        <button type="button" className="session-open" disabled={busy} aria-current={active ? 'true' : undefined} onClick={() => void openSession(s.id, agent)}>
          <span className="session-title">{s.title || 'Untitled'}</span>
          <span className="muted small">
            {agent?.title ?? `Agent ${s.agent_id}`} · {s.turns} turn{s.turns === 1 ? '' : 's'}
          </span>
        </button>
      )}
      <button
        type="button"
        className="btn-icon"
        aria-label={`Rename session ${s.title}`}
        title="Rename"
        onClick={() => {
          setTitle(s.title);
          setRenaming(true);
        }}
      >
        ✎
      </button>
      <button type="button" className="btn-icon" disabled={busy && active} aria-label={`Delete session ${s.title}`} title="Delete this session and its answers" onClick={onDelete}>
        ×
      </button>
    </li>
  );
}
