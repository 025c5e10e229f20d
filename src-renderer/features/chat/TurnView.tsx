import { memo, useState } from 'react';
import { Markdown } from '../../components/Markdown';
import { CopyButton } from '../../components/CopyButton';
import { ReadAloudButton } from './ReadAloudButton';
import { formatCredits, formatNumber, formatTime } from '../../components/format';
import { t as tr, useT } from '../../i18n';
import { selectBusy, useConversation, type Turn } from '../../stores/conversation';
import { ScreenLink } from '../../components/ScreenLink';
import { SourcesPanel } from './SourcesPanel';
import { CitationLinks } from '../files/CitationLinks';
import { CitationProvider } from '../../components/citations';
import { useCitations } from './use-citations';
import { RemoteLink } from '../settings/RemoteLink';
import { isRemoteErrorCode } from '../settings/remote-errors';
import { AltSwitcher } from './AltSwitcher';
import { MessageEditor } from './MessageEditor';
import { ToolSteps } from './ToolSteps';
import { runningText, stalledSeconds } from './elapsed';
import { useNow } from './use-now';
import './turn-status.css';
import './turns.css';

/** One turn: drawn again only when it changes (a long conversation streams into its last turn alone). */
export const TurnView = memo(function TurnView({ turn }: { turn: Turn }) {
  const t = useT();
  const regenerate = useConversation((s) => s.regenerate);
  const setEditing = useConversation((s) => s.setEditing);
  const editingThis = useConversation((s) => s.editing === turn.key);
  const busy = useConversation(selectBusy);
  const [sources, setSources] = useState(false);
  const live = turn.status === 'pending' || turn.status === 'running';
  const cites = useCitations(turn.responseId, turn.output, live);
  return (
    <article className="turn" data-status={turn.status} data-response-id={turn.responseId ?? undefined} data-testid="turn">
      <div className="msg msg-user" data-testid="user-message">
        <div className="msg-role">
          {t('chat.turn.you')}
          <AltSwitcher turn={turn} />
        </div>
        {editingThis ? (
          <MessageEditor turn={turn} />
        ) : (
          <>
            <div className="msg-text" data-find-text>
              {turn.user}
            </div>
            <div className="msg-tools">
              <CopyButton text={turn.user} label={t('chat.turn.copy')} name={t('chat.turn.copyMessage')} />
              {!busy ? (
                <button type="button" className="btn btn-small btn-ghost" onClick={() => setEditing(turn.key)} aria-label={t('chat.turn.editLabel')}>
                  {t('chat.turn.edit')}
                </button>
              ) : null}
            </div>
          </>
        )}
        {turn.attachments.length ? (
          <ul className="chips">
            {turn.attachments.map((a) => (
              <li key={a.id} className="chip">
                {a.name}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className="msg msg-agent" data-testid="answer">
        <div className="msg-role">{t('chat.turn.agent')}</div>
        <ToolSteps responseId={turn.responseId} live={live} known={turn.steps} />
        {turn.output ? (
          <div data-find-text>
            <CitationProvider value={cites.citations}>
              <Markdown text={turn.output} streaming={live} />
            </CitationProvider>
          </div>
        ) : live ? (
          <div className="typing" aria-label={t('chat.turn.thinking')}>
            …
          </div>
        ) : null}
        {!live ? <CitationLinks cited={cites.cited} onOpen={cites.citations.open} /> : null}
        {cites.viewer}
        {turn.status === 'canceled' && !turn.output ? (
          <p className="muted small" data-testid="turn-stopped">
            {t('chat.turn.stoppedEmpty')}
          </p>
        ) : null}
        {turn.error && turn.status !== 'canceled' ? (
          <div className="note note-error" role="alert" data-testid="turn-error">
            {turn.error.message}
            {turn.error.code === 'model_unavailable' ? (
              <>
                {' '}
                <ScreenLink screen="settings" sub="providers">
                  {t('chat.turn.openProviders')}
                </ScreenLink>
              </>
            ) : null}
            {isRemoteErrorCode(turn.error.code) ? (
              <>
                {' '}
                <RemoteLink />
              </>
            ) : null}
          </div>
        ) : null}
        <footer className="turn-meta">
          <TurnStatus turn={turn} />
          {turn.model ? <span data-testid="turn-model">{turn.model}</span> : null}
          {turn.at ? (
            <time dateTime={turn.at} data-testid="turn-time">
              {formatTime(turn.at)}
            </time>
          ) : null}
          {turn.timing && !live ? (
            <span data-testid="turn-speed" title={turn.credits !== null ? t('chat.turn.credits', { credits: formatCredits(turn.credits) }) : undefined}>
              {speedText(turn.timing)}
            </span>
          ) : turn.credits !== null ? (
            <span data-testid="turn-credits">{t('chat.turn.credits', { credits: formatCredits(turn.credits) })}</span>
          ) : null}
          {!live && turn.output ? <CopyButton text={turn.output} label={t('chat.turn.copyAnswer')} /> : null}
          {!live && turn.output ? <ReadAloudButton turnKey={turn.key} text={turn.output} /> : null}
          {turn.responseId !== null && !live ? (
            <button type="button" className="btn btn-small btn-ghost" aria-expanded={sources} onClick={() => setSources(!sources)}>
              {sources ? t('chat.turn.hideSources') : t('chat.turn.sources')}
            </button>
          ) : null}
          {!live && !busy ? (
            <button type="button" className="btn btn-small btn-ghost" onClick={() => void regenerate(turn.key)}>
              {t('chat.turn.regenerate')}
            </button>
          ) : null}
        </footer>
        {sources && turn.responseId !== null ? <SourcesPanel responseId={turn.responseId} /> : null}
      </div>
    </article>
  );
});

/** "Writing…" while text flows; during a pause, for how long (it updates every second). */
function TurnStatus({ turn }: { turn: Turn }) {
  const running = turn.status === 'running' && !turn.waiting;
  const now = useNow(running);
  const text = running ? runningText(turn.lastTextAt, !!turn.output, now) : statusText(turn);
  return (
    <span data-testid="turn-status" data-stalled={running && stalledSeconds(turn.lastTextAt, now) !== null ? 'true' : undefined}>
      {text}
    </span>
  );
}

function statusText(turn: Turn): string {
  switch (turn.status) {
    case 'pending':
      return tr('chat.turn.sending');
    case 'running':
      return turn.waiting ? tr('chat.turn.waitingForYou') : tr('chat.turn.writing');
    case 'succeeded':
      return tr('chat.turn.done');
    case 'canceled':
      return tr('chat.turn.stopped');
    default:
      return tr('chat.turn.failed');
  }
}

/** "first text after 0.4 s"; under a tenth of a second, "first text in under 0.1 s" rather than "after 0.0 s". */
export function firstTextWords(seconds: number): string {
  if (seconds < 0.1) return tr('chat.turn.firstTextFast');
  return tr('chat.turn.firstText', { seconds: formatNumber(seconds, { maximumFractionDigits: 1, minimumFractionDigits: 1 }) });
}

/** "38 tokens/s · first text after 0.4 s", as LM Studio shows an answer's speed. */
export function speedText(timing: NonNullable<Turn['timing']>): string {
  const first = firstTextWords(timing.first_token_ms / 1000);
  if (timing.tokens_per_second === null) return first;
  return `${tr('chat.turn.speed', { rate: formatNumber(timing.tokens_per_second, { maximumFractionDigits: 1 }) })} · ${first}`;
}
