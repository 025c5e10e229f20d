import { useState } from 'react';
import { api, messageOf, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { formatTime } from '../../components/format';
import { useLoad } from '../../components/use-load';
import { toast } from '../../stores/toasts';
import { outcomeOf, statusText } from './outcome';
import { useT } from '../../i18n';

/** The payload pretty-printed when it is JSON (it always is, unless cut at 64 KB). */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/**
 * One delivery opened: the request it sends (URL, headers, payload) and each attempt's answer
 * (status, the start of the receiver's body, duration), with Redeliver.
 */
export function DeliveryDetail({ webhookId, deliveryId, version, active, onRedelivered }: { webhookId: number; deliveryId: number; version: string; active: boolean; onRedelivered(): void }) {
  const t = useT();
  // Read again in place when the log shows it changed (a retry, a redelivery): focus stays where it is.
  const detail = useLoad(() => api.call(ops.getWebhookDelivery, { params: { id: webhookId, deliveryId } }), [webhookId, deliveryId, version]);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const d = detail.data;

  const redeliver = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await api.call(ops.redeliverWebhookDelivery, { params: { id: webhookId, deliveryId } });
      toast(t('webhooks.detail.redelivered'));
      onRedelivered();
    } catch (err) {
      setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  if (detail.error) return <ErrorNote error={detail.error} what={t('webhooks.detail.request')} />;
  if (!d) return <p className="muted small">{t('webhooks.detail.loading')}</p>;
  const running = d.status === 'pending' && d.attempt === 0;
  return (
    <div className="delivery-detail" data-testid="delivery-detail">
      <section aria-label={t('webhooks.detail.request')}>
        <h4>{t('webhooks.detail.request')}</h4>
        <p className="small delivery-url">
          {d.request.method} {d.request.url}
        </p>
        <dl className="kv small" data-testid="delivery-headers">
          {Object.entries(d.request.headers).map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
        <p className="muted small">{t('webhooks.detail.requestHelp')}</p>
        <pre className="block small" data-testid="delivery-payload" tabIndex={0} aria-label={t('webhooks.detail.payload')}>
          {pretty(d.request.body)}
        </pre>
        {d.request.body_truncated ? <p className="muted small">{t('webhooks.detail.truncated')}</p> : null}
      </section>
      <section aria-label={t('webhooks.detail.answer')}>
        <h4>{d.attempts.length > 1 ? t('webhooks.detail.answers', { count: d.attempts.length }) : t('webhooks.detail.answer')}</h4>
        {!d.attempts.length ? <p className="muted small">{running ? t('webhooks.detail.notYet') : d.error ?? t('webhooks.detail.noTry')}</p> : null}
        <ul className="attempts">
          {[...d.attempts].reverse().map((a) => {
            const outcome = outcomeOf(a);
            return (
              <li key={a.attempt} data-testid="delivery-attempt">
                <p className="small">
                  <span className={outcome.ok ? 'badge badge-ok' : 'badge badge-error'}>{a.status_code === null ? t('webhooks.log.noAnswer') : statusText(a.status_code)}</span>{' '}
                  <span className="muted">{t('webhooks.detail.attempt', { n: a.attempt, time: formatTime(a.created_at), ms: a.latency_ms })}</span>
                </p>
                {a.status_code === null ? <p className="small">{outcome.text}</p> : null}
                {a.response_body ? (
                  <pre className="block small" data-testid="delivery-response" tabIndex={0} aria-label={t('webhooks.detail.answerOf', { n: a.attempt })}>
                    {a.response_body}
                  </pre>
                ) : a.status_code !== null ? (
                  <p className="muted small">{t('webhooks.detail.noBody')}</p>
                ) : null}
              </li>
            );
          })}
        </ul>
        {d.next_attempt_at ? <p className="muted small">{t('webhooks.detail.next', { time: formatTime(d.next_attempt_at) })}</p> : null}
      </section>
      <div className="row">
        <button type="button" className="btn btn-small" disabled={busy || !active} onClick={() => void redeliver()} aria-describedby={active ? undefined : `redeliver-why-${deliveryId}`}>
          {busy ? t('webhooks.detail.redelivering') : t('webhooks.detail.redeliver')}
        </button>
        {!active ? (
          <span className="muted small" id={`redeliver-why-${deliveryId}`}>
            {t('webhooks.detail.activateFirst')}
          </span>
        ) : null}
      </div>
      {failure ? (
        <div className="note note-error small" role="alert">
          {failure}
        </div>
      ) : null}
    </div>
  );
}
