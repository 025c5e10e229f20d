import { useEffect, useRef, useState } from 'react';
import type { Webhook } from '../../../src-main/platform/contract/webhooks';
import { api, messageOf, ops } from '../../api';
import { FormError } from '../../components/FieldError';
import { formatList } from '../../components/format';
import { toast } from '../../stores/toasts';
import { useConfirm } from '../../stores/confirm';
import { useT } from '../../i18n';
import { DeliveryLog } from './DeliveryLog';
import { outcomeOf } from './outcome';
import { choiceOf, chosenEvents, type EventsChoice } from './EventChoice';
import { WebhookFields, useWebhookWords } from './WebhookFields';

export function WebhookCard({ hook, onChanged, onSecret }: { hook: Webhook; onChanged(): Promise<void>; onSecret(s: string): void }) {
  const t = useT();
  const [log, setLog] = useState(false);
  const [logKey, setLogKey] = useState(0);
  const [editing, setEditing] = useState(false);
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<{ ok: boolean; text: string } | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
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
      const d = await api.call(ops.testWebhook, { params: { id: hook.id } });
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

  const closeEditor = () => {
    setEditing(false);
    // Back to what opened the editor, as a dialog does.
    requestAnimationFrame(() => editButton.current?.focus());
  };

  const active = hook.status === 'active';
  const choice = choiceOf(hook.events);
  const events = choice.succeeded && choice.failed ? t('webhooks.events.all') : formatList([...(choice.succeeded ? [t('webhooks.events.succeeded')] : []), ...(choice.failed ? [t('webhooks.events.failed')] : [])]);
  return (
    <article className="card stack" data-testid="webhook" aria-label={t('webhooks.card.label', { url: hook.url })}>
      <div className="webhook-head">
        <h3 className="grow">{hook.description ?? <code className="webhook-url">{hook.url}</code>}</h3>
        <span className={active ? 'badge badge-ok' : 'badge'} data-testid="webhook-status">
          {active ? t('webhooks.card.active') : t('webhooks.card.paused')}
        </span>
      </div>
      {hook.description ? (
        <code className="small webhook-url" data-testid="webhook-shown-url">
          {hook.url}
        </code>
      ) : null}
      <p className="small muted" style={{ margin: 0 }} data-testid="webhook-events">
        {t('webhooks.card.sends', { events })}
      </p>
      {editing ? (
        <WebhookEditor
          hook={hook}
          onCancel={closeEditor}
          onSaved={async () => {
            await onChanged();
            setLogKey((k) => k + 1);
            closeEditor();
          }}
        />
      ) : null}
      <div className="webhook-actions small">
        <span data-testid="success-count">{t('webhooks.card.delivered', { count: hook.success_count })}</span>
        <span data-testid="failure-count">{t('webhooks.card.failed', { count: hook.failure_count })}</span>
        <span className="grow" />
        <button
          ref={editButton}
          type="button"
          className="btn btn-small"
          aria-expanded={editing}
          aria-label={t('webhooks.card.editLabel', { url: hook.url })}
          onClick={() => setEditing(!editing)}
          data-testid="webhook-edit"
        >
          {t('webhooks.card.edit')}
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => void act(() => api.call(ops.updateWebhook, { params: { id: hook.id }, body: { status: active ? 'inactive' : 'active' } }), active ? t('webhooks.card.paused_toast') : t('webhooks.card.resumed'))}
        >
          {active ? t('webhooks.card.pause') : t('webhooks.card.resume')}
        </button>
        <button type="button" className="btn btn-small" disabled={testing} aria-busy={testing} onClick={() => void sendTest()}>
          {testing ? t('webhooks.card.testing') : t('webhooks.card.test')}
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() =>
            void confirm({ title: t('webhooks.card.rotateTitle'), body: t('webhooks.card.rotateBody'), confirmLabel: t('webhooks.card.rotate'), danger: true }).then((ok) =>
              ok ? act(() => api.call(ops.updateWebhook, { params: { id: hook.id }, body: { rotate_secret: true } }), t('webhooks.card.rotated')) : undefined,
            )
          }
        >
          {t('webhooks.card.rotate')}
        </button>
        <button type="button" className="btn btn-small" aria-expanded={log} onClick={() => setLog(!log)}>
          {log ? t('webhooks.card.hideLog') : t('webhooks.card.showLog')}
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() =>
            void confirm({ title: t('webhooks.card.deleteTitle', { url: hook.url }), body: t('webhooks.card.deleteBody'), confirmLabel: t('webhooks.card.deleteConfirm'), danger: true }).then((ok) =>
              ok ? act(() => api.call(ops.deleteWebhook, { params: { id: hook.id } }), t('webhooks.card.deleted')) : undefined,
            )
          }
        >
          {t('webhooks.card.delete')}
        </button>
      </div>
      {tested ? (
        <div className={tested.ok ? 'note note-ok' : 'note note-error'} role={tested.ok ? 'status' : 'alert'} data-testid="test-result">
          {tested.text}
          {tested.ok ? null : ` ${t('webhooks.card.logDetails')}`}
        </div>
      ) : null}
      {/* A retry or a redelivery changes the counts above: the log says when, the card reads them again. */}
      {log ? <DeliveryLog key={logKey} webhookId={hook.id} active={active} onActivity={() => void onChanged()} /> : null}
    </article>
  );
}

/** The webhook's URL, description and events, changed in place: the same webhook, its secret and log kept. */
function WebhookEditor({ hook, onCancel, onSaved }: { hook: Webhook; onCancel(): void; onSaved(): Promise<void> }) {
  const t = useT();
  const [url, setUrl] = useState(hook.url);
  const [description, setDescription] = useState(hook.description ?? '');
  const [events, setEvents] = useState<EventsChoice>(choiceOf(hook.events));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const worded = useWebhookWords(error);
  const noEvent = !events.succeeded && !events.failed;

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.call(ops.updateWebhook, { params: { id: hook.id }, body: { url: url.trim(), description: description.trim() || null, events: chosenEvents(events) } });
      toast(t('webhooks.edit.saved'));
      await onSaved();
    } catch (err) {
      setError(err);
      first.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="stack webhook-editor"
      aria-label={t('webhooks.edit.heading')}
      onSubmit={(e) => {
        e.preventDefault();
        if (url.trim() && !noEvent) void save();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onCancel();
        }
      }}
      data-testid="webhook-editor"
    >
      <WebhookFields url={url} onUrl={setUrl} description={description} onDescription={setDescription} events={events} onEvents={setEvents} worded={worded} urlField={first} testIds="webhook-edit" />
      <p className="muted small" style={{ margin: 0 }}>
        {t('webhooks.edit.keeps')}
      </p>
      <div className="row">
        <button type="submit" className="btn btn-primary btn-small" disabled={busy || !url.trim() || noEvent}>
          {busy ? t('webhooks.edit.saving') : t('webhooks.edit.save')}
        </button>
        <button type="button" className="btn btn-small" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
      <FormError worded={worded} error={error} />
    </form>
  );
}
