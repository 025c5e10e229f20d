import { useEffect, useId, useRef, useState } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { COMPARE_MAX } from '../../../src-main/platform/contract/sessions';
import { isFinished } from '../../../src-main/platform/contract/executions';
import { api, ops, type CallInput, type ExecutionEvent } from '../../api';
import { useT } from '../../i18n';
import { formatNumber } from '../../components/format';
import { useModalDialog } from '../../components/use-modal';
import { ErrorNote } from '../../components/ErrorNote';
import { useSetup } from '../../stores/setup';
import { useAgentChoice } from '../../stores/agent-choice';
import { setAnswer } from '../../stores/chat';
import { selectTurns, useConversation } from '../../stores/conversation';
import { newChatDeveloper, useSessions } from '../../stores/sessions';
import { compareSpeed, type Column } from './compare-speed';
import { firstTextWords, speedText } from './TurnView';
import './compare.css';

/**
 * Compare: one message asked of 2 to 4 models at once (POST /api/agents/{id}/compare), each answer
 * streaming in its own column with its own Stop and its speed. The answers are alternatives of the
 * same turn in the conversation; "Continue with this answer" opens the conversation on that one,
 * with its model, so the next message follows it.
 */
export function CompareView({ agent, onClose }: { agent: Agent; onClose(): void }) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const ids = useId();
  useModalDialog(ref, true);
  const served = useSetup((s) => s.models);
  const current = useAgentChoice((s) => (typeof s.answers.model === 'string' ? s.answers.model : null));
  const models = [...new Set(served.map((m) => m.id))];
  const [text, setText] = useState('');
  const [picked, setPicked] = useState<string[]>(() => {
    const first = current && models.includes(current) ? current : models[0];
    return [first, models.find((m) => m !== first)].filter((m): m is string => !!m);
  });
  const [columns, setColumns] = useState<Column[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [sending, setSending] = useState(false);
  const streams = useRef(new Set<AbortController>());
  useEffect(() => {
    const open = streams.current;
    // Closing stops reading here; the answers go on in the platform and stay in the conversation.
    return () => open.forEach((c) => c.abort());
  }, []);

  const patch = (id: number, f: (c: Column) => Column) => setColumns((cols) => cols.map((c) => (c.id === id ? f(c) : c)));
  const follow = (col: Column) => {
    const ctl = new AbortController();
    streams.current.add(ctl);
    const onEvent = (e: ExecutionEvent) => {
      const now = performance.now();
      patch(col.id, (c) => {
        const output = c.output + (e.output ?? '');
        const ended = isFinished(e.status);
        return {
          ...c,
          output,
          status: ended ? (e.status === 'completed' ? 'succeeded' : (e.status as Column['status'])) : output ? 'running' : c.status,
          error: e.error ?? c.error,
          firstAt: c.firstAt ?? (output ? now : null),
          endAt: ended ? now : c.endAt,
        };
      });
    };
    void api
      .stream(ops.streamAgentResponse, { params: { id: col.id } }, onEvent, ctl.signal)
      .then(async () => {
        if (ctl.signal.aborted) return;
        const stored = await api.call(ops.getAgentResponse, { params: { id: col.id } });
        patch(col.id, (c) => ({ ...c, timing: stored.timing ?? null }));
      })
      .catch((err) => {
        if (!ctl.signal.aborted) patch(col.id, (c) => ({ ...c, status: 'failed', error: { message: err instanceof Error ? err.message : String(err), code: 'stream' } }));
      })
      .finally(() => streams.current.delete(ctl));
  };

  const ask = async () => {
    const message = text.trim();
    if (!message || picked.length < 2 || picked.length > COMPARE_MAX) return;
    const { agentId, answers, mainQuestion } = useAgentChoice.getState();
    if (agentId === null) return;
    const conv = useConversation.getState();
    const path = selectTurns(conv);
    const parent = path[path.length - 1];
    // The same request the composer would send, with the models to ask.
    const body: CallInput<typeof ops.compareModels>['body'] = {
      answers: { ...answers, ...(mainQuestion ? { [mainQuestion]: message } : {}), ...(conv.rootId ? { root_id: conv.rootId } : {}) },
      ...(mainQuestion ? {} : { messages: [...newChatDeveloper(conv.rootId), { role: 'user' as const, content: message }] }),
      ...(parent?.responseId ? { parent_id: parent.responseId } : {}),
      models: picked,
    };
    setSending(true);
    setError(null);
    try {
      const res = await api.call(ops.compareModels, { params: { id: agentId }, body });
      const started = performance.now();
      const cols: Column[] = res.responses.map((e, i) => ({ id: e.id, rootId: e.root_id, model: picked[i], output: '', status: 'pending', error: null, startedAt: started, firstAt: null, endAt: null }));
      setColumns(cols);
      cols.forEach(follow);
      if (conv.rootId === null) void useSessions.getState().settleNew(cols[0].rootId);
      void useSessions.getState().loadSessions();
    } catch (err) {
      setError(err);
    } finally {
      setSending(false);
    }
  };

  const stop = async (col: Column) => {
    try {
      await api.call(ops.cancelAgentResponse, { params: { id: col.id } });
    } catch {
      // Already finished: its stream brings the end.
    }
  };

  const use = async (col: Column) => {
    onClose();
    const conv = useConversation.getState();
    await conv.openSession(col.rootId, agent);
    useConversation.getState().choose(`e${col.id}`);
    setAnswer('model', col.model);
    document.getElementById('chat-input')?.focus();
  };

  const toggle = (m: string) => setPicked((p) => (p.includes(m) ? p.filter((x) => x !== m) : [...p, m]));
  const pickProblem = picked.length < 2 ? t('sessions.compare.pickMore') : picked.length > COMPARE_MAX ? t('sessions.compare.tooMany') : null;
  const asking = columns.length === 0;

  return (
    <dialog ref={ref} className="dialog compare-dialog" aria-labelledby={`${ids}-title`} onCancel={(e) => (e.preventDefault(), onClose())} data-testid="compare-dialog">
      <div className="compare-head">
        <h2 id={`${ids}-title`}>{t('sessions.compare.title')}</h2>
        <button type="button" className="btn btn-small" onClick={onClose} data-testid="compare-close">
          {t('common.close')}
        </button>
      </div>
      {asking ? (
        <form
          className="compare-ask"
          onSubmit={(e) => {
            e.preventDefault();
            void ask();
          }}
        >
          <p className="muted small">{t('sessions.compare.intro')}</p>
          <label htmlFor={`${ids}-text`} className="field">
            <span>{t('sessions.compare.message')}</span>
          </label>
          <textarea
            id={`${ids}-text`}
            rows={3}
            value={text}
            autoFocus
            placeholder={t('sessions.compare.placeholder')}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              }
            }}
            data-testid="compare-text"
          />
          {models.length ? (
            <fieldset className="compare-models" aria-describedby={`${ids}-pick`}>
              <legend>{t('sessions.compare.models')}</legend>
              {models.map((m) => (
                <label key={m} className="check">
                  <input type="checkbox" checked={picked.includes(m)} onChange={() => toggle(m)} data-testid="compare-model" value={m} /> {m}
                </label>
              ))}
              <p id={`${ids}-pick`} className={`small ${pickProblem ? 'field-error' : 'muted'}`} aria-live="polite">
                {pickProblem ?? ''}
              </p>
            </fieldset>
          ) : (
            <p className="note note-muted">{t('sessions.compare.noModels')}</p>
          )}
          <ErrorNote error={error} />
          <div className="dialog-actions">
            <button type="submit" className="btn btn-primary" disabled={sending || !!pickProblem || !text.trim()} data-testid="compare-send">
              {t('sessions.compare.send', { count: picked.length })}
            </button>
          </div>
        </form>
      ) : (
        <section className="compare-columns" aria-label={t('sessions.compare.columns')} style={{ gridTemplateColumns: `repeat(${columns.length}, minmax(0, 1fr))` }}>
          {columns.map((c) => (
            <CompareColumn key={c.id} column={c} onStop={() => void stop(c)} onUse={() => void use(c)} />
          ))}
        </section>
      )}
    </dialog>
  );
}

function CompareColumn({ column: c, onStop, onUse }: { column: Column; onStop(): void; onUse(): void }) {
  const t = useT();
  const running = c.status === 'pending' || c.status === 'running';
  const speed = compareSpeed(c);
  const status =
    c.status === 'pending'
      ? t('sessions.compare.waiting')
      : c.status === 'running'
        ? t('sessions.compare.writing')
        : c.status === 'succeeded'
          ? t('sessions.compare.done')
          : c.status === 'canceled'
            ? t('sessions.compare.stopped')
            : t('sessions.compare.failed', { message: c.error?.message ?? '' });
  return (
    <article className="compare-column" aria-label={c.model} data-testid="compare-column" data-model={c.model} data-status={c.status}>
      <header>
        <h3>{c.model}</h3>
        <p className={`small ${c.status === 'failed' ? 'field-error' : 'muted'}`} role="status" data-testid="compare-status">
          {status}
        </p>
        {speed ? (
          <p className="small muted" data-testid="compare-speed">
            {'measured' in speed
              ? speedText(speed.measured)
              : [
                  speed.estimate.rate !== null ? t('sessions.compare.speed', { rate: formatNumber(speed.estimate.rate, { maximumFractionDigits: 1 }) }) : null,
                  firstTextWords(speed.estimate.firstSeconds),
                ]
                  .filter(Boolean)
                  .join(' · ')}
          </p>
        ) : null}
      </header>
      <div className="compare-text" data-testid="compare-output" tabIndex={0}>
        {c.output}
      </div>
      <footer>
        {running ? (
          <button type="button" className="btn btn-small" onClick={onStop} aria-label={t('sessions.compare.stopLabel', { model: c.model })} data-testid="compare-stop">
            {t('sessions.compare.stop')}
          </button>
        ) : c.status === 'succeeded' || (c.status === 'canceled' && c.output) ? (
          <button type="button" className="btn btn-small btn-primary" onClick={onUse} aria-label={t('sessions.compare.useLabel', { model: c.model })} data-testid="compare-use">
            {t('sessions.compare.use')}
          </button>
        ) : null}
      </footer>
    </article>
  );
}
