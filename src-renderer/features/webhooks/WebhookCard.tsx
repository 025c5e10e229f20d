import { useState } from 'react';
import type { Webhook } from '../../../src-main/platform/contract/webhooks';
import { api, messageOf } from '../../api';
import { toast } from '../../stores/toasts';
import { DeliveryLog } from './DeliveryLog';

export function WebhookCard({ hook, onChanged, onSecret }: { hook: Webhook; onChanged(): Promise<void>; onSecret(s: string): void }) {
  const [log, setLog] = useState(false);
  const [logKey, setLogKey] = useState(0);

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

  const active = hook.status === 'active';
  return (
    <article className="card stack" data-testid="webhook">
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
        <button type="button" className="btn btn-small" onClick={() => void act(() => api.webhooks.test(hook.id), 'Test event sent.').then(() => setLog(true))}>
          Send test
        </button>
        <button type="button" className="btn btn-small" onClick={() => confirm('Rotate the signing secret? The old one stops working now.') && void act(() => api.webhooks.update(hook.id, { rotate_secret: true }), 'Secret rotated.')}>
          Rotate secret
        </button>
        <button type="button" className="btn btn-small" aria-expanded={log} onClick={() => setLog(!log)}>
          {log ? 'Hide log' : 'Delivery log'}
        </button>
        <button type="button" className="btn btn-small" onClick={() => confirm('Delete this webhook?') && void act(() => api.webhooks.delete(hook.id), 'Webhook deleted.')}>
          Delete
        </button>
      </div>
      {log ? <DeliveryLog key={logKey} webhookId={hook.id} /> : null}
    </article>
  );
}
