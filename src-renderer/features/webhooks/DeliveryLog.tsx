import { useEffect, useRef, useState } from 'react';
import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { formatTime } from '../../components/format';
import { useLoad } from '../../components/use-load';
import { TableHead } from '../../components/TableHead';
import { useT } from '../../i18n';
import { DeliveryDetail } from './DeliveryDetail';
import { eventWords } from './outcome';

const STATUS_CLASS: Record<string, string> = { succeeded: 'badge badge-ok', failed: 'badge badge-error', pending: 'badge badge-warn', canceled: 'badge' };
const STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const;

/**
 * Deliveries, newest first: when, what, the result (with the receiver's status code and the next
 * try), and how many tries; refreshed while open. Five columns, so it fits a 1024 px window; a
 * row opens to its request and answers under the table. `onActivity` hears of each change (a
 * retry, a redelivery) so the card's counts follow.
 */
export function DeliveryLog({ webhookId, active, onActivity }: { webhookId: number; active: boolean; onActivity?(): void }) {
  const t = useT();
  const log = useLoad(() => api.call(ops.listWebhookDeliveries, { params: { id: webhookId }, query: { per_page: 50 } }), [webhookId]);
  const [open, setOpen] = useState<number | null>(null);
  const reload = log.reload;
  useEffect(() => {
    const timer = setInterval(() => void reload(), 2000);
    return () => clearInterval(timer);
  }, [reload]);
  // What the log shows changed since the last read: tell the card (its counts come from the same tries).
  const seen = useRef<string | null>(null);
  const print = log.data ? log.data.data.map((d) => `${d.id}:${d.status}:${d.attempt}:${d.updated_at}`).join('|') : null;
  const activity = useRef(onActivity);
  activity.current = onActivity;
  useEffect(() => {
    if (print === null) return;
    if (seen.current !== null && seen.current !== print) activity.current?.();
    seen.current = print;
  }, [print]);

  if (log.error) return <ErrorNote error={log.error} what={t('webhooks.card.showLog')} />;
  if (!log.data) return <p className="muted small">{t('webhooks.log.loading')}</p>;
  if (!log.data.data.length) return <p className="muted small">{t('webhooks.log.empty')}</p>;
  const opened = log.data.data.find((d) => d.id === open) ?? null;
  return (
    <>
      {/* Scrolls inside its card if it must, never pushing the card's buttons off screen. */}
      <div className="table-scroll">
        <table className="table small delivery-log" data-testid="delivery-log">
          <TableHead columns={[t('webhooks.log.when'), t('webhooks.log.what'), t('webhooks.log.result'), t('webhooks.log.tries'), { hidden: t('webhooks.log.details') }]} />
          <tbody>
            {log.data.data.map((d) => {
              const ok = d.status_code !== null && d.status_code >= 200 && d.status_code < 300;
              const expanded = open === d.id;
              const what = eventWords(d.event_type);
              const status = STATUSES.includes(d.status) ? t(`webhooks.log.status.${d.status}`) : d.status;
              return (
                <tr key={d.id} data-testid="delivery" data-status={d.status} className={expanded ? 'row-open' : undefined}>
                  <td>{formatTime(d.updated_at)}</td>
                  <td>{what}</td>
                  <td>
                    <span className="delivery-result">
                      <span className={STATUS_CLASS[d.status] ?? 'badge'}>{status}</span>{' '}
                      <span className={d.status_code === null ? 'badge' : ok ? 'badge badge-ok' : 'badge badge-error'} data-testid="delivery-code">
                        {d.status_code ?? t('webhooks.log.noAnswer')}
                      </span>
                      {d.latency_ms !== null ? <span className="muted"> {t('webhooks.log.latency', { ms: d.latency_ms })}</span> : null}
                    </span>
                    {d.next_attempt_at ? <div className="muted">{t('webhooks.log.nextTry', { time: formatTime(d.next_attempt_at) })}</div> : null}
                  </td>
                  <td>{d.attempt}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-expanded={expanded}
                      aria-controls={expanded ? `delivery-${d.id}` : undefined}
                      aria-label={expanded ? t('webhooks.log.hide', { what, time: formatTime(d.created_at) }) : t('webhooks.log.open', { what, time: formatTime(d.created_at) })}
                      onClick={() => setOpen(expanded ? null : d.id)}
                    >
                      {expanded ? t('webhooks.log.hideShort') : t('webhooks.log.details')}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {/* Under the table, not in a row of it: the detail never scrolls sideways. */}
      {opened ? (
        <section className="delivery-open" id={`delivery-${opened.id}`} aria-label={t('webhooks.log.of', { what: eventWords(opened.event_type), time: formatTime(opened.created_at) })}>
          <div className="row">
            <h3 className="grow">{t('webhooks.log.of', { what: eventWords(opened.event_type), time: formatTime(opened.created_at) })}</h3>
            <button type="button" className="btn btn-small" onClick={() => setOpen(null)}>
              {t('webhooks.log.close')}
            </button>
          </div>
          <DeliveryDetail key={opened.id} webhookId={webhookId} deliveryId={opened.id} version={opened.updated_at} active={active} onRedelivered={() => void reload()} />
        </section>
      ) : null}
    </>
  );
}
