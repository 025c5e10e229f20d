import { useState } from 'react';
import type { Webhook } from '../../../src-main/platform/contract/webhooks';
import { api, messageOf } from '../../api';
import { toast } from '../../stores/toasts';
import { useConfirm } from '../../components/confirm';
import { DeliveryLog } from './DeliveryLog';
import { outcomeOf } from './outcome';

export function WebhookCard({ hook, onChanged, onSecret }: { hook: Webhook; onChanged(): Promise<void>; onSecret(s: string): void }) {
  const [log, setLog] = useState(false);
  const [logKey, setLogKey] = useState(0);
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<{ ok: boolean; text: string } | null>(null);
  const confirm = useConfirm();

  const act = async (fn: () => Promise<unknown>, done: string) => {
    try {
      const res = await fn();
      toast(done);
      if (res && typeof res === 'object' && 'secret' in res && typeof res.secret === 'string') onSecret(res.secret);
      await onChanged();
      setLogKey((k) => k + 1);
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };

  // The receiver's answer is the result: a 500 is an error, never "sent" (UX.md).
  const sendTest = async () => {
    setTesting(true);
    setTested(null);
    try {
      const d = await api.webhooks.test(hook.id);
      setTested(outcomeOf(d));
      setLog(true);
      setLogKey((k) => k + 1);
      await onChanged();
    } catch (err) {
      setTested({ ok: false, text: messageOf(err) });
    } finally {
      setTesting(false);
    }
  };

  const active = hook.status === 'active';
  return (
    <article className="card stack" data-testid="webhook" aria-label={`Webhook ${hook.url}`}>
      <div className="row">
        <code className="grow" style={{ wordBreak: 'break-all' }}>
          {hook.method} {hook.url}
        </code>
        <span className={active ? 'badge badge-ok' : 'badge'}>{hook.status}</span>
      </div>
      <div className="row small">
        <span data-testid="success-count">
          <strong>{hook.success_count}</strong> delivered
        </span>
        <span data-testid="failure-count">
          <strong>{hook.failure_count}</strong> failed
        </span>
        <span className="grow" />
        <button type="button" className="btn btn-small" onClick={() => void act(() => api.webhooks.update(hook.id, { status: active ? 'inactive' : 'active' }), active ? 'Webhook paused.' : 'Webhook activated.')}>
          {active ? 'Deactivate' : 'Activate'}
        </button>
        <button type="button" className="btn btn-small" disabled={testing} aria-busy={testing} onClick={() => void sendTest()}>
          {testing ? 'Sending…' : 'Send test'}
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() =>
            void confirm({ title: 'Rotate the signing secret?', body: 'The current secret stops working now: the receiver must verify with the new one, shown once after this.', confirmLabel: 'Rotate secret', danger: true }).then(
              (ok) => (ok ? act(() => api.webhooks.update(hook.id, { rotate_secret: true }), 'Secret rotated.') : undefined),
            )
          }
        >
          Rotate secret
        </button>
        <button type="button" className="btn btn-small" aria-expanded={log} onClick={() => setLog(!log)}>
          {log ? 'Hide log' : 'Delivery log'}
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() =>
            void confirm({ title: `Delete the webhook to ${hook.url}?`, body: "It stops receiving this agent's events now.", confirmLabel: 'Delete webhook', danger: true }).then(
              (ok) => (ok ? act(() => api.webhooks.delete(hook.id), 'Webhook deleted.') : undefined),
            )
          }
        >
          Delete
        </button>
      </div>
      {tested ? (
        <div className={tested.ok ? 'note note-ok' : 'note note-error'} role={tested.ok ? 'status' : 'alert'} data-testid="test-result">
          {tested.text}
          {tested.ok ? null : ' The delivery log below has the details.'}
        </div>
      ) : null}
      {log ? <DeliveryLog key={logKey} webhookId={hook.id} active={active} /> : null}
    </article>
  );
}
