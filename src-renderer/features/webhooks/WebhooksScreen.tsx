import { useEffect, useState } from 'react';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { wordErrors } from '../../api/field-errors';
import { FieldError, FormError, describedBy } from '../../components/FieldError';
import { useLoad } from '../../components/use-load';
import { useAgents } from '../../stores/agents';
import { toast } from '../../stores/toasts';
import { WebhookCard } from './WebhookCard';
import { SecretNotice } from './SecretNotice';
import { Screen } from '../../components/Screen';

export default function WebhooksScreen() {
  const agents = useAgents((s) => s.agents);
  const [agentId, setAgentId] = useState<number | null>(null);
  const [url, setUrl] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [secret, setSecret] = useState<string | null>(null);
  useEffect(() => {
    if (agentId === null && agents.length) setAgentId(agents[0].id);
  }, [agentId, agents]);
  const hooks = useLoad(() => (agentId === null ? Promise.resolve(null) : api.webhooks.listForAgent(agentId)), [agentId]);

  // A refusal in a sentence under the URL field (field-errors.ts); anything else below the form.
  const worded = wordErrors(error, { fields: { url: 'webhook URL' } });

  const add = async () => {
    if (agentId === null || !url.trim()) return;
    try {
      const created = await api.webhooks.create(agentId, url.trim());
      setSecret(created.secret);
      setUrl('');
      setError(null);
      toast('Webhook added.');
      await hooks.reload();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <Screen id="webhooks" title="Webhooks">
      <p className="muted">Each agent can call your URLs when one of its executions succeeds or fails. Deliveries are signed (Standard Webhooks) and retried.</p>
      <div className="split">
        <aside className="card" aria-label="Agents">
          <h2 className="section-title" style={{ marginTop: 0 }}>
            Agent
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
            className="card row"
            onSubmit={(e) => {
              e.preventDefault();
              void add();
            }}
          >
            <label className="field grow">
              <span>Add a webhook URL</span>
              <input type="url" placeholder="http://localhost:5678/webhook/…" value={url} onChange={(e) => setUrl(e.target.value)} {...describedBy(worded, 'url', 'webhook-url-error')} data-testid="webhook-url" />
              <FieldError id="webhook-url-error" text={worded.fields.url} />
            </label>
            <button type="submit" className="btn btn-primary" disabled={agentId === null || !url.trim()} style={{ alignSelf: 'flex-end' }}>
              Add webhook
            </button>
          </form>
          <FormError worded={worded} error={error} />
          {secret ? <SecretNotice secret={secret} onDone={() => setSecret(null)} /> : null}
          <ErrorNote error={hooks.error} what="Webhooks" />
          {hooks.data && !hooks.data.data.length ? <p className="muted">This agent has no webhooks.</p> : null}
          {hooks.data?.data.map((w) => (
            <WebhookCard key={w.id} hook={w} onChanged={hooks.reload} onSecret={setSecret} />
          ))}
        </div>
      </div>
    </Screen>
  );
}
