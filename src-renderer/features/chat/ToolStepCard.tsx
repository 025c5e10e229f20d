import { useState } from 'react';
import type { ToolStep } from '../../../src-main/platform/contract/tools';
import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { countdown } from './elapsed';
import { useNow } from './use-now';
import { refusal, whereOf } from './tool-words';
import { t as tr, Trans, useT } from '../../i18n';

const LABEL: Record<ToolStep['status'], () => string> = {
  awaiting_approval: () => tr('chat.tools.waiting'),
  running: () => tr('chat.tools.running'),
  succeeded: () => tr('chat.tools.done'),
  failed: () => tr('chat.tools.failed'),
  denied: () => tr('chat.tools.denied'),
};

/** One tool call: tool, server, arguments and result, collapsible; with the approval buttons while it waits. */
export function ToolStepCard({ step, executionId, onAnswered }: { step: ToolStep; executionId: number; onAnswered(): void }) {
  const t = useT();
  const waiting = step.status === 'awaiting_approval';
  const refused = refusal(step);
  const where = whereOf(step);
  // Open while it waits for an answer; afterwards only when the user opens it (the answer stays in view).
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const answer = async (how: 'once' | 'always' | 'deny') => {
    setBusy(true);
    try {
      if (how === 'deny') await api.call(ops.denyStep, { params: { id: executionId, step: step.id }, body: {} });
      else await api.call(ops.approveStep, { params: { id: executionId, step: step.id }, body: { always: how === 'always' } });
      setError(null);
      onAnswered();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const args = typeof step.arguments === 'string' ? step.arguments : JSON.stringify(step.arguments, null, 2);
  return (
    <details className="tool-step" data-status={step.status} data-testid="tool-step" open={open || waiting} onToggle={(e) => {
        if (!waiting) setOpen((e.target as HTMLDetailsElement).open);
      }}>
      <summary>
        <span className="tool-step-name">
          <code>{step.tool}</code> {where ? <span className="muted">{where}</span> : null}
        </span>
        <span
          className={`badge ${refused ? '' : step.status === 'succeeded' ? 'badge-ok' : step.status === 'failed' || step.status === 'denied' ? 'badge-error' : 'badge-warn'}`}
          data-testid="tool-step-status"
        >
          {refused ? refused.label : LABEL[step.status]()}
        </span>
        {step.duration_ms !== null && !waiting && !refused ? <span className="small muted">{t('chat.tools.ms', { ms: step.duration_ms })}</span> : null}
        {step.approved === 'user' ? <span className="small muted">{t('chat.tools.allowedByYou')}</span> : null}
      </summary>
      <div className="tool-step-body">
        <div className="small muted">{t('chat.tools.arguments')}</div>
        <pre className="tool-step-pre">{args}</pre>
        {step.result !== null ? (
          <>
            <div className="small muted">{t('chat.tools.result')}</div>
            <pre className="tool-step-pre" data-testid="tool-step-result">
              {step.result}
            </pre>
          </>
        ) : null}
        {refused ? (
          <div className="note note-muted small" role="status" data-testid="tool-step-refused">
            {refused.why}
          </div>
        ) : step.error ? (
          <div className="note note-error small" role="status">
            {step.error}
          </div>
        ) : null}
        {waiting ? (
          <div className="row" role="group" aria-label={t('chat.tools.ask')}>
            <span className="small grow">
              <Trans i18nKey="chat.tools.wants" values={{ tool: step.tool, server: step.server }} components={{ strong: <strong /> }} />
              {step.approval_expires_at ? <DenyCountdown until={step.approval_expires_at} /> : null}
            </span>
            <button type="button" className="btn btn-small btn-primary" disabled={busy} onClick={() => void answer('once')}>
              {t('chat.tools.once')}
            </button>
            <button type="button" className="btn btn-small" disabled={busy} onClick={() => void answer('always')}>
              {t('chat.tools.always')}
            </button>
            <button type="button" className="btn btn-small btn-danger" disabled={busy} onClick={() => void answer('deny')}>
              {t('chat.tools.deny')}
            </button>
          </div>
        ) : null}
        <ErrorNote error={error} />
      </div>
    </details>
  );
}

/** The time left before an unanswered call is denied (the platform's deadline), updating every second. */
function DenyCountdown({ until }: { until: string }) {
  const now = useNow(true);
  return (
    <span className="deny-countdown" data-testid="deny-countdown">
      {' '}
      <Trans i18nKey="chat.tools.countdown" values={{ left: countdown(until, now) }} components={{ time: <span className="tabular" /> }} />
    </span>
  );
}
