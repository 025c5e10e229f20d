import { useEffect, useId, useRef, useState } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { INSTRUCTIONS_MAX } from '../../../src-main/platform/contract/sessions';
import { api, ops } from '../../api';
import { useT } from '../../i18n';
import { formatNumber } from '../../components/format';
import { useModalDialog } from '../../components/use-modal';
import { ErrorNote } from '../../components/ErrorNote';
import { useAgentChoice } from '../../stores/agent-choice';
import { useConversation } from '../../stores/conversation';
import { toast } from '../../stores/toasts';
import { useSessions, type Session, type SessionOptions } from '../../stores/sessions';
import { CompareView } from './CompareView';
import './chat-instructions.css';

/**
 * Where the slider for a chat's own temperature starts: the temperature the chat runs with now (its
 * agent's default, the one picked in Options, or the one its latest turn ran with), so ticking the box
 * changes nothing until the slider moves; near 0.7 when the agent has no temperature at all.
 */
export function startingTemperature(answers: Record<string, unknown>): number {
  const now = typeof answers.temperature === 'string' || typeof answers.temperature === 'number' ? Number(answers.temperature) : NaN;
  if (String(answers.temperature ?? '').trim() !== '' && Number.isFinite(now)) return Math.min(2, Math.max(0, now));
  return 0.7;
}

interface Settings {
  instructions: string | null;
  options: SessionOptions;
}

/**
 * The open chat's own instructions and options, read from the session list (or the platform when
 * the list does not hold it). A new chat has only the instructions written for it so far.
 */
function useChatSettings(rootId: number | null): Settings | null {
  const listed = useSessions((s) => (rootId === null ? undefined : s.sessions.find((x) => x.id === rootId)));
  const pending = useSessions((s) => s.pendingInstructions);
  const listedOnce = useSessions((s) => s.listedOnce);
  const [fetched, setFetched] = useState<Session | null>(null);
  useEffect(() => {
    // Asked of the platform only when the list, once read, does not hold it (a search, the other view,
    // an older page): the whole conversation is a long read, the list already has most.
    if (rootId === null || listed || !listedOnce) return;
    let live = true;
    api.call(ops.getSession, { params: { id: rootId } }).then(
      (s) => live && setFetched(s),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [rootId, listed, listedOnce]);
  if (rootId === null) return { instructions: pending, options: {} };
  const s = listed ?? (fetched?.id === rootId ? fetched : null);
  return s ? { instructions: s.instructions, options: s.options } : null;
}

/**
 * One line above the composer: what this chat carries of its own (instructions, temperature,
 * answer length), a button to change them, and Compare models. The editor is a dialog.
 */
export function ChatInstructions({ agent }: { agent: Agent | null }) {
  const t = useT();
  const rootId = useConversation((s) => s.rootId);
  const settings = useChatSettings(rootId);
  const [editing, setEditing] = useState(false);
  const [comparing, setComparing] = useState(false);
  if (!agent || agent.source === 'remote') return null;
  const parts: string[] = [];
  if (settings?.instructions) parts.push(`“${oneLine(settings.instructions)}”`);
  if (settings?.options.temperature !== undefined) parts.push(t('sessions.instructions.temperature', { value: formatNumber(settings.options.temperature) }));
  if (settings?.options.max_tokens !== undefined) parts.push(t('sessions.instructions.maxTokens', { count: settings.options.max_tokens, formatted: formatNumber(settings.options.max_tokens) }));
  const summary = parts.length ? parts.join(' · ') : t('sessions.instructions.none');
  return (
    <div className="chat-instructions" data-testid="chat-instructions">
      <span className="chat-instructions-label">{t('sessions.instructions.line')}:</span>
      <span className={`chat-instructions-summary${parts.length ? '' : ' muted'}`} title={settings?.instructions ?? undefined} data-testid="chat-instructions-summary">
        {summary}
      </span>
      <button type="button" className="btn btn-small" aria-label={t('sessions.instructions.editLabel')} onClick={() => setEditing(true)} data-testid="chat-instructions-edit">
        {t('sessions.instructions.edit')}
      </button>
      <button type="button" className="btn btn-small" title={t('sessions.compare.openLabel')} onClick={() => setComparing(true)} data-testid="compare-open">
        {t('sessions.compare.open')}
      </button>
      {editing ? <InstructionsDialog rootId={rootId} settings={settings ?? { instructions: null, options: {} }} onClose={() => setEditing(false)} /> : null}
      {comparing ? <CompareView agent={agent} onClose={() => setComparing(false)} /> : null}
    </div>
  );
}

const oneLine = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return Array.from(line).length > 60 ? `${Array.from(line).slice(0, 60).join('')}…` : line;
};

function InstructionsDialog({ rootId, settings, onClose }: { rootId: number | null; settings: Settings; onClose(): void }) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const ids = useId();
  useModalDialog(ref, true);
  const answers = useAgentChoice((s) => s.answers);
  const update = useSessions((s) => s.updateSession);
  const setPending = useSessions((s) => s.setPendingInstructions);
  const [text, setText] = useState(settings.instructions ?? '');
  const [ownTemp, setOwnTemp] = useState(settings.options.temperature !== undefined);
  const [temp, setTemp] = useState(settings.options.temperature ?? startingTemperature(answers));
  const [max, setMax] = useState(settings.options.max_tokens !== undefined ? String(settings.options.max_tokens) : '');
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const isNew = rootId === null;
  const maxValue = max.trim() === '' ? undefined : Number(max);
  const maxBad = maxValue !== undefined && (!Number.isInteger(maxValue) || maxValue < 1 || maxValue > 1_000_000);
  const tooLong = text.length > INSTRUCTIONS_MAX;

  const save = async () => {
    if (maxBad || tooLong) return;
    if (isNew) {
      setPending(text);
      toast(t('sessions.instructions.saved'));
      return onClose();
    }
    setSaving(true);
    const options: SessionOptions = { ...settings.options };
    delete options.temperature;
    delete options.max_tokens;
    if (ownTemp) options.temperature = Math.round(temp * 100) / 100;
    if (maxValue !== undefined) options.max_tokens = maxValue;
    const saved = await update(rootId, { instructions: text.trim() ? text : null, options });
    setSaving(false);
    if (!saved) return setError(useSessions.getState().sessionsError);
    toast(t('sessions.instructions.saved'));
    onClose();
  };

  return (
    <dialog ref={ref} className="dialog chat-instructions-dialog" aria-labelledby={`${ids}-title`} onCancel={(e) => (e.preventDefault(), onClose())} data-testid="chat-instructions-dialog">
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <h2 id={`${ids}-title`}>{t('sessions.instructions.title')}</h2>
        <div className="dialog-body">
          <label className="field" htmlFor={`${ids}-text`}>
            <span>{t('sessions.instructions.field')}</span>
          </label>
          <textarea
            id={`${ids}-text`}
            rows={6}
            value={text}
            autoFocus
            placeholder={t('sessions.instructions.placeholder')}
            aria-describedby={`${ids}-hint ${ids}-count`}
            aria-invalid={tooLong || undefined}
            onChange={(e) => setText(e.target.value)}
            data-testid="chat-instructions-text"
          />
          <p id={`${ids}-hint`} className="muted small">
            {t('sessions.instructions.hint')}
          </p>
          <p id={`${ids}-count`} className={`small ${tooLong ? 'field-error' : 'muted'}`}>
            {tooLong ? t('sessions.instructions.tooLong', { max: formatNumber(INSTRUCTIONS_MAX) }) : t('sessions.instructions.count', { count: text.length, max: formatNumber(INSTRUCTIONS_MAX) })}
          </p>
          {isNew ? (
            <p className="note note-muted small" data-testid="chat-instructions-new">
              {t('sessions.instructions.newChat')}
            </p>
          ) : (
            <fieldset className="chat-options">
              <label className="check">
                <input type="checkbox" checked={ownTemp} onChange={(e) => setOwnTemp(e.target.checked)} data-testid="chat-own-temperature" /> {t('sessions.instructions.ownTemperature')}
              </label>
              <div className="chat-temp">
                <label htmlFor={`${ids}-temp`}>{t('sessions.instructions.temperatureField')}</label>
                <input
                  id={`${ids}-temp`}
                  type="range"
                  min={0}
                  max={2}
                  step={0.05}
                  value={temp}
                  disabled={!ownTemp}
                  aria-describedby={`${ids}-temp-hint`}
                  onChange={(e) => setTemp(Number(e.target.value))}
                  data-testid="chat-temperature"
                />
                <output htmlFor={`${ids}-temp`} data-testid="chat-temperature-value">
                  {formatNumber(temp, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}
                </output>
              </div>
              <p id={`${ids}-temp-hint`} className="muted small">
                {t('sessions.instructions.temperatureHint')}
              </p>
              <label className="field" htmlFor={`${ids}-max`}>
                <span>{t('sessions.instructions.maxField')}</span>
              </label>
              <input
                id={`${ids}-max`}
                type="number"
                inputMode="numeric"
                min={1}
                max={1_000_000}
                step={1}
                value={max}
                aria-invalid={maxBad || undefined}
                aria-describedby={`${ids}-max-hint`}
                onChange={(e) => setMax(e.target.value)}
                data-testid="chat-max-tokens"
              />
              <p id={`${ids}-max-hint`} className={`small ${maxBad ? 'field-error' : 'muted'}`}>
                {maxBad ? t('sessions.instructions.maxInvalid') : t('sessions.instructions.maxHint')}
              </p>
            </fieldset>
          )}
          <ErrorNote error={error} />
        </div>
        <div className="dialog-actions">
          <button
            type="button"
            className="btn chat-instructions-clear"
            onClick={() => {
              setText('');
              setOwnTemp(false);
              setMax('');
            }}
          >
            {t('sessions.instructions.clear')}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={saving || maxBad || tooLong} data-testid="chat-instructions-save">
            {t('common.save')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
