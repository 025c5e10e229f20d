import { useEffect, useState } from 'react';
import { useT } from '../../i18n';
import { deleteSession } from '../../stores/chat';
import { useConversation } from '../../stores/conversation';
import { ErrorNote } from '../../components/ErrorNote';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useSessions, type Session, type SessionView } from '../../stores/sessions';
import { SessionItem, isWriting } from './SessionItem';
import { useChatPrefs } from '../../stores/chat-prefs';
import { titleNumbers } from './session-dates';
import { useNow } from './use-now';
import './session-list.css';

const WRITING_POLL_MS = 3000;
/** Relative dates ("2 min ago") are re-read this often. */
const DATES_EVERY_MS = 30_000;

/**
 * The platform's session list (GET /api/sessions): the same wherever the user signs in; searchable,
 * paged; pinned ones first; the chats or the archived ones (a search looks through both); each with
 * when it was last active, a number where titles repeat, and a badge when a schedule started it.
 * "Hide scheduled" (remembered) leaves those out.
 */
export function SessionList() {
  const t = useT();
  const { sessions, sessionsTotal, sessionsError, loadSessions, view, setView } = useSessions();
  const newSession = useConversation((s) => s.newSession);
  const { hideScheduled, setHideScheduled } = useChatPrefs();
  const [query, setQuery] = useState('');
  const [doomed, setDoomed] = useState<Session | null>(null);
  const now = useNow(true, DATES_EVERY_MS);
  const numbers = titleNumbers(sessions);
  useEffect(() => {
    // Searching as the user types, a moment after the last key.
    const timer = setTimeout(() => void loadSessions({ query }), query ? 250 : 0);
    return () => clearTimeout(timer);
  }, [query, loadSessions, hideScheduled]);
  const writing = sessions.some(isWriting);
  useEffect(() => {
    // Answers run on in sessions not open here: re-read the list until they have ended.
    if (!writing) return;
    const timer = setTimeout(() => void loadSessions(), WRITING_POLL_MS);
    return () => clearTimeout(timer);
  }, [writing, sessions, loadSessions]);
  const searching = !!query.trim();
  const empty = searching ? t('sessions.list.noMatch') : view === 'archived' ? t('sessions.list.noArchived') : hideScheduled ? t('sessions.list.noneButScheduled') : t('sessions.list.empty');
  const viewButton = (v: SessionView, label: string) => (
    <button type="button" className={`session-view${view === v && !searching ? ' on' : ''}`} aria-pressed={view === v && !searching} disabled={searching} onClick={() => setView(v)} data-testid={`session-view-${v}`}>
      {label}
    </button>
  );
  return (
    <aside className="sessions" aria-label={t('sessions.list.label')}>
      <button type="button" className="btn btn-primary wide" onClick={newSession}>
        {t('sessions.list.newChat')}
      </button>
      <h2 className="section-title">{t('sessions.list.heading')}</h2>
      <label className="sr-only" htmlFor="session-search">
        {t('sessions.list.searchLabel')}
      </label>
      <input id="session-search" type="search" className="session-search" placeholder={t('sessions.list.searchPlaceholder')} value={query} onChange={(e) => setQuery(e.target.value)} data-testid="session-search" />
      <div className="session-views" role="group" aria-label={t('sessions.list.views')}>
        {viewButton('chats', t('sessions.list.viewChats'))}
        {viewButton('archived', t('sessions.list.viewArchived'))}
      </div>
      {searching ? <p className="muted small session-search-note">{t('sessions.list.searchingAll')}</p> : null}
      <label className="check small session-hide-scheduled">
        <input type="checkbox" checked={hideScheduled} onChange={(e) => setHideScheduled(e.target.checked)} data-testid="hide-scheduled" /> {t('sessions.list.hideScheduled')}
      </label>
      <ErrorNote error={sessionsError} />
      {!sessions.length ? <p className="muted small">{empty}</p> : null}
      <ul className="session-list">
        {sessions.map((s) => (
          <SessionItem key={s.id} session={s} number={numbers.get(s.id) ?? null} now={now} onDelete={() => setDoomed(s)} />
        ))}
      </ul>
      {sessions.length < sessionsTotal ? (
        <button type="button" className="btn btn-small wide" onClick={() => void loadSessions({ more: true })} data-testid="more-sessions">
          {t('sessions.list.more', { count: sessionsTotal - sessions.length })}
        </button>
      ) : null}
      <ConfirmDialog
        open={!!doomed}
        title={t('sessions.list.deleteTitle')}
        confirmLabel={t('sessions.list.deleteConfirm')}
        danger
        onCancel={() => setDoomed(null)}
        onConfirm={() => {
          if (doomed) void deleteSession(doomed.id);
          setDoomed(null);
        }}
      >
        <p>{t('sessions.list.deleteBody', { title: doomed?.title || t('sessions.item.untitled') })}</p>
      </ConfirmDialog>
    </aside>
  );
}
