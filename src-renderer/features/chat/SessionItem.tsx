import { useState } from 'react';
import { useT } from '../../i18n';
import { useAgents } from '../../stores/agents';
import { selectBusy, useConversation } from '../../stores/conversation';
import { useSessions, type Session } from '../../stores/sessions';
import { formatTime } from '../../components/format';
import { sessionWhen } from './session-when';
import { SessionMenu } from './SessionMenu';
import { isFinished } from '../../../src-main/platform/contract/executions';

/**
 * One session in the list: open it, rename it in place, pin, archive, download or delete it. Shows
 * when it was last active, its number among sessions of the same title, whether it is pinned or
 * archived, and the schedule that started it.
 */
export function SessionItem({ session: s, number, now, onDelete }: { session: Session; number: number | null; now: number; onDelete(): void }) {
  const t = useT();
  const rootId = useConversation((st) => st.rootId);
  const openSession = useConversation((st) => st.openSession);
  const renameSession = useSessions((st) => st.renameSession);
  const busy = useConversation(selectBusy);
  const agent = useAgents((st) => st.agents.find((a) => a.id === s.agent_id));
  const agentsLoaded = useAgents((st) => st.loaded);
  // Until the agents are read, no name rather than a wrong "deleted".
  const agentName = agent?.title ?? (agentsLoaded ? t('sessions.item.agentGone') : null);
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(s.title);
  const active = s.id === rootId;
  const shownTitle = s.title || t('sessions.item.untitled');
  // Sessions sharing a title are told apart by their number in the buttons' names too.
  const named = `${shownTitle}${number !== null ? ` #${number}` : ''}`;
  const writing = isWriting(s) || (active && busy);
  return (
    <li className={`${active ? 'active' : ''}${s.pinned ? ' pinned' : ''}`.trim() || undefined} data-testid="session" data-session-id={s.id} data-pinned={s.pinned || undefined} data-archived={s.archived || undefined}>
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
            {t('sessions.item.titleField')}
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
            {s.pinned ? (
              <svg className="session-pin" data-testid="session-pinned" role="img" aria-label={t('sessions.item.pinnedMark')} viewBox="0 0 16 16" width="12" height="12">
                <title>{t('sessions.item.pinnedMark')}</title>
                <path d="M5 1h6v1.5l-1 1V7l2.5 2.5V11H8.75v4L8 16l-.75-1v-4H3.5V9.5L6 7V3.5l-1-1z" fill="currentColor" />
              </svg>
            ) : null}
            <span className="session-title" title={shownTitle}>
              {shownTitle}
            </span>
            {number !== null ? (
              <span className="session-number muted small" data-testid="session-number" aria-label={t('sessions.item.numberOf', { number })}>
                #{number}
              </span>
            ) : null}
          </span>
          {s.schedule ? (
            <span className="session-schedule" data-testid="session-scheduled" title={s.schedule.name ? t('sessions.item.scheduledBy', { name: s.schedule.name }) : t('sessions.item.scheduledAnon')}>
              <span className="badge badge-schedule">{t('sessions.item.scheduledBadge')}</span>
              {s.schedule.name ? <span className="session-schedule-name small">{s.schedule.name}</span> : null}
            </span>
          ) : null}
          {s.archived ? (
            <span className="session-schedule" data-testid="session-archived-mark">
              <span className="badge">{t('sessions.item.archivedMark')}</span>
            </span>
          ) : null}
          <span className="muted small session-meta" data-testid="session-meta">
            <time dateTime={s.updated_at} title={formatTime(s.updated_at)} data-testid="session-date">
              {sessionWhen(s.updated_at, now)}
            </time>
            <span>
              {'· '}
              {t('sessions.item.turns', { count: s.turns })}
            </span>
            {writing ? (
              <span>
                {'· '}
                <strong className="session-writing" data-testid="session-writing">
                  {t('sessions.item.writing')}
                </strong>
              </span>
            ) : null}
            {agentName ? (
              <span className="session-agent" title={agentName}>
                <span className="sr-only">{' · '}</span>
                {agentName}
              </span>
            ) : null}
          </span>
        </button>
      )}
      <span className="session-actions">
        <button
          type="button"
          className="btn-icon"
          aria-label={t('sessions.item.renameLabel', { name: named })}
          title={t('sessions.item.rename')}
          onClick={() => {
            setTitle(s.title);
            setRenaming(true);
          }}
        >
          ✎
        </button>
        <SessionMenu session={s} name={named} />
        <button
          type="button"
          className="btn-icon"
          disabled={writing}
          aria-label={t('sessions.item.deleteLabel', { name: named })}
          title={writing ? t('sessions.item.deleteBusy') : t('sessions.item.deleteHint')}
          onClick={onDelete}
        >
          ×
        </button>
      </span>
    </li>
  );
}

/** An answer of the session is still being written (per the platform's list). */
export function isWriting(s: Session): boolean {
  return !isFinished(s.last_status);
}
