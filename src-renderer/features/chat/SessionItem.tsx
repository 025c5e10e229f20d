import { useState } from 'react';
import { useAgents } from '../../stores/agents';
import { selectBusy, useConversation } from '../../stores/conversation';
import { useSessions, type Session } from '../../stores/sessions';
import { fullDate, relativeDate } from './session-dates';
import { isFinished } from '../../../src-main/platform/contract/executions';

/**
 * One session in the list: open it, rename it in place, or delete it. Shows when it was last
 * active, its number among sessions of the same title, and the schedule that started it.
 */
export function SessionItem({ session: s, number, now, onDelete }: { session: Session; number: number | null; now: number; onDelete(): void }) {
  const rootId = useConversation((st) => st.rootId);
  const openSession = useConversation((st) => st.openSession);
  const renameSession = useSessions((st) => st.renameSession);
  const busy = useConversation(selectBusy);
  const agent = useAgents((st) => st.agents.find((a) => a.id === s.agent_id));
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(s.title);
  const active = s.id === rootId;
  // Sessions sharing a title are told apart by their number in the buttons' names too.
  const named = `${s.title}${number !== null ? ` #${number}` : ''}`;
  const writing = isWriting(s) || (active && busy);
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
        <button type="button" className="session-open" aria-current={active ? 'true' : undefined} onClick={() => void openSession(s.id, agent)}>
          <span className="session-title-row">
            <span className="session-title">{s.title || 'Untitled'}</span>
            {number !== null ? (
              <span className="session-number muted small" data-testid="session-number" aria-label={`number ${number} of this title`}>
                #{number}
              </span>
            ) : null}
          </span>
          {s.schedule ? (
            <span className="session-schedule" data-testid="session-scheduled" title={s.schedule.name ? `Started by the schedule “${s.schedule.name}”` : 'Started by a schedule'}>
              <span className="badge badge-schedule">Scheduled</span>
              {s.schedule.name ? <span className="session-schedule-name small">{s.schedule.name}</span> : null}
            </span>
          ) : null}
          <span className="muted small session-meta">
            <time dateTime={s.updated_at} title={fullDate(s.updated_at)} data-testid="session-date">
              {relativeDate(s.updated_at, now)}
            </time>
            {' · '}
            {agent?.title ?? `Agent ${s.agent_id}`} · {s.turns} turn{s.turns === 1 ? '' : 's'}
            {writing ? (
              <>
                {' · '}
                <strong className="session-writing" data-testid="session-writing">
                  writing…
                </strong>
              </>
            ) : null}
          </span>
        </button>
      )}
      <button
        type="button"
        className="btn-icon"
        aria-label={`Rename session ${named}`}
        title="Rename"
        onClick={() => {
          setTitle(s.title);
          setRenaming(true);
        }}
      >
        ✎
      </button>
      <button
        type="button"
        className="btn-icon"
        disabled={writing}
        aria-label={`Delete session ${named}`}
        title={writing ? 'An answer is being written; stop it or let it finish first' : 'Delete this session and its answers'}
        onClick={onDelete}
      >
        ×
      </button>
    </li>
  );
}

/** An answer of the session is still being written (per the platform's list). */
export function isWriting(s: Session): boolean {
  return !isFinished(s.last_status);
}
