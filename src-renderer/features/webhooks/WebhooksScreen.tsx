import { useEffect, useRef, useState } from 'react';
import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { FormError } from '../../components/FieldError';
import { useLoad } from '../../components/use-load';
import { useAgents } from '../../stores/agents';
import { toast } from '../../stores/toasts';
import { WebhookCard } from './WebhookCard';
import { SecretNotice } from './SecretNotice';
import { chosenEvents, type EventsChoice } from './EventChoice';
import { WebhookFields, useWebhookWords } from './WebhookFields';
import { Screen } from '../../components/Screen';
import { useT } from '../../i18n';
import './webhooks.css';

export default function WebhooksScreen() {
  const t = useT();
  const agents = useAgents((s) => s.agents);
  const [agentId, setAgentId] = useState<number | null>(null);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventsChoice>({ succeeded: true, failed: true });
  const [error, setError] = useState<unknown>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const urlField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (agentId === null && agents.length) setAgentId(agents[0].id);
  }, [agentId, agents]);
  const hooks = useLoad(() => (agentId === null ? Promise.resolve(null) : api.call(ops.listAgentWebhooks, { params: { id: agentId }, query: { per_page: 100 } })), [agentId]);

  // A refusal in a sentence under its field; anything else below the form.
  const worded = useWebhookWords(error);
  const noEvent = !events.succeeded && !events.failed;

  const add = async () => {
    if (agentId === null || !url.trim() || noEvent) return;
    try {
      const created = await api.call(ops.createWebhook, { params: { id: agentId }, body: { method: 'POST', url: url.trim(), description: description.trim() || undefined, events: chosenEvents(events) } });
      setSecret(created.secret);
      setUrl('');
      setDescription('');
      setEvents({ succeeded: true, failed: true });
      setError(null);
      toast(t('webhooks.form.connected'));
      await hooks.reload();
    } catch (err) {
      setError(err);
      urlField.current?.focus();
    }
  };

  return (
    <Screen id="webhooks" title={t('webhooks.title')}>
      <p className="muted">{t('webhooks.intro')}</p>
      <div className="split webhooks-split">
        <aside className="card" aria-label={t('webhooks.agents')}>
          <h2 className="section-title" style={{ marginTop: 0 }}>
            {t('webhooks.agent')}
          </h2>
          <ul className="list-plain">
            {agents.map((a) => (
              <li key={a.id} className={a.id === agentId ? 'list-item active' : 'list-item'}>
                <button type="button" className="pick" aria-current={a.id === agentId ? 'true' : undefined} onClick={() => setAgentId(a.id)}>
                  {a.title}
                </button>
              </li>
            ))}
          </ul>
        </aside>
        <div className="stack">
          <form
            className="card stack"
            aria-labelledby="webhook-add-heading"
            onSubmit={(e) => {
              e.preventDefault();
              void add();
            }}
          >
            <h2 id="webhook-add-heading" className="section-title" style={{ margin: 0 }}>
              {t('webhooks.form.heading')}
            </h2>
            <WebhookFields
              url={url}
              onUrl={setUrl}
              description={description}
              onDescription={setDescription}
              events={events}
              onEvents={setEvents}
              worded={worded}
              urlField={urlField}
              urlPlaceholder="http://localhost:5678/webhook/…"
              testIds="webhook"
            />
            <div className="row">
              <button type="submit" className="btn btn-primary" disabled={agentId === null || !url.trim() || noEvent}>
                {t('webhooks.form.connect')}
              </button>
            </div>
            <FormError worded={worded} error={error} />
          </form>
          {secret ? <SecretNotice secret={secret} onDone={() => (setSecret(null), urlField.current?.focus())} /> : null}
          <ErrorNote error={hooks.error} what={t('webhooks.title')} />
          {hooks.data && !hooks.data.data.length ? <p className="muted">{t('webhooks.none')}</p> : null}
          {hooks.data?.data.map((w) => (
            <WebhookCard key={w.id} hook={w} onChanged={hooks.reload} onSecret={setSecret} />
          ))}
        </div>
      </div>
    </Screen>
  );
}
