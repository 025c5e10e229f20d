import { useEffect, useState } from 'react';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { formatTime } from '../../components/format';
import { useLoad } from '../../components/use-load';
import { TableHead } from '../../components/TableHead';
import { DeliveryDetail } from './DeliveryDetail';

const STATUS_CLASS: Record<string, string> = { succeeded: 'badge badge-ok', failed: 'badge badge-error', pending: 'badge badge-warn', canceled: 'badge' };

/** Deliveries, newest first, with the receiver's status code and the next retry; refreshed while open. A row opens to its request and answers. */
export function DeliveryLog({ webhookId, active }: { webhookId: number; active: boolean }) {
  const log = useLoad(() => api.webhooks.deliveries(webhookId), [webhookId]);
  const [open, setOpen] = useState<number | null>(null);
  const reload = log.reload;
  useEffect(() => {
    const t = setInterval(() => void reload(), 2000);
    return () => clearInterval(t);
  }, [reload]);
  if (log.error) return <ErrorNote error={log.error} what="Delivery log" />;
  if (!log.data) return <p className="muted small">Loading deliveries…</p>;
  if (!log.data.data.length) return <p className="muted small">No deliveries yet.</p>;
  const opened = log.data.data.find((d) => d.id === open) ?? null;
  return (
    <>
      {/* Scrolls inside its card at narrow widths instead of pushing the card's buttons off screen. */}
      <div className="table-scroll">
        <table className="table small" data-testid="delivery-log">
          <TableHead columns={['When', 'Event', 'Status', 'HTTP', 'Attempts', 'Next retry', 'Error', { hidden: 'Details' }]} />
          <tbody>
            {log.data.data.map((d) => {
              const ok = d.status_code !== null && d.status_code >= 200 && d.status_code < 300;
              const expanded = open === d.id;
              return (
                <tr key={d.id} data-testid="delivery" data-status={d.status} className={expanded ? 'row-open' : undefined}>
                  <td>{formatTime(d.updated_at)}</td>
                  <td>
                    <code>{d.event_type}</code>
                  </td>
                  <td>
                    <span className={STATUS_CLASS[d.status] ?? 'badge'}>{d.status}</span>
                  </td>
                  <td>
                    <span className={d.status_code === null ? 'badge' : ok ? 'badge badge-ok' : 'badge badge-error'} data-testid="delivery-code">
                      {d.status_code ?? 'no answer'}
                    </span>
                    {d.latency_ms !== null ? <span className="muted"> {d.latency_ms} ms</span> : null}
                  </td>
                  <td>{d.attempt}</td>
                  <td>{d.next_attempt_at ? formatTime(d.next_attempt_at) : '–'}</td>
                  <td className="muted cell-wrap">{d.error ?? ''}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-expanded={expanded}
                      aria-controls={expanded ? `delivery-${d.id}` : undefined}
                      aria-label={`${expanded ? 'Hide details' : 'Details'} of ${d.event_type} at ${formatTime(d.created_at)}`}
                      onClick={() => setOpen(expanded ? null : d.id)}
                    >
                      {expanded ? 'Hide' : 'Details'}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {/* Under the table, not in a row of it: the table scrolls sideways at narrow widths, the detail never does. */}
      {opened ? (
        <section className="delivery-open" id={`delivery-${opened.id}`} aria-label={`Delivery of ${opened.event_type} at ${formatTime(opened.created_at)}`}>
          <div className="row">
            <h3 className="grow">
              <code>{opened.event_type}</code> at {formatTime(opened.created_at)}
            </h3>
            <button type="button" className="btn btn-small" onClick={() => setOpen(null)}>
              Close
            </button>
          </div>
          <DeliveryDetail key={opened.id} webhookId={webhookId} deliveryId={opened.id} version={opened.updated_at} active={active} onRedelivered={() => void reload()} />
        </section>
      ) : null}
    </>
  );
}
