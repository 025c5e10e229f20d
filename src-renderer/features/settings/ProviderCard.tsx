import { useMemo, useState } from 'react';
import type { ProviderView } from '../../../src-main/platform/contract/settings';
import { api } from '../../api';
import { providerSentence, sentenceOf } from '../../api/field-errors';
import { useSetup } from '../setup/setup-store';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PROVIDER_KIND_INFO, providerLabel } from './providers';

const SHOWN_MODELS = 8;

/**
 * One provider: where it is, whether it answers (and why not, in plain words), the models it
 * serves, and its actions: edit in place, test, switch off, remove. `onToggle`/`onRemove` answer
 * the platform's refusal or null.
 */
export function ProviderCard({ provider: p, onEdit, onToggle, onRemove }: { provider: ProviderView; onEdit(): void; onToggle(): Promise<unknown>; onRemove(): Promise<unknown> }) {
  const all = useSetup((s) => s.models);
  const models = useMemo(() => all.filter((m) => m.provider === p.id), [all, p.id]);
  const source = useSetup((s) => s.sources.find((x) => x.provider === p.id));
  const checking = useSetup((s) => s.status === 'checking');
  const defaultModel = useSetup((s) => s.defaultModel?.model ?? null);
  const [test, setTest] = useState<{ ok: boolean; text: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const name = providerLabel(p);

  const status = !p.enabled
    ? { tone: 'muted', text: 'Switched off: its models are not offered.' }
    : !source
      ? { tone: 'muted', text: checking ? 'Checking…' : 'Not checked yet.' }
      : source.ok
        ? { tone: 'ok', text: `Reachable · ${source.count} model${source.count === 1 ? '' : 's'}` }
        : { tone: 'error', text: `Not reachable. ${providerSentence(source.error ?? 'No answer within 8 s.')}` };

  const run = async (action: () => Promise<unknown>) => {
    const refused = await action();
    setFailure(refused ? sentenceOf(refused) : null);
  };

  const runTest = async () => {
    setTest({ ok: true, text: 'Testing…' });
    try {
      const r = await api.settings.testProvider({ id: p.id });
      setTest(r.ok ? { ok: true, text: `Connected in ${Math.round(r.latency_ms)} ms: ${r.models.length} model${r.models.length === 1 ? '' : 's'}.` } : { ok: false, text: providerSentence(r.error ?? 'No answer within 8 s.') });
      void useSetup.getState().check({ fresh: true });
    } catch (err) {
      setTest({ ok: false, text: sentenceOf(err) });
    }
  };

  const shown = models.slice(0, SHOWN_MODELS);
  return (
    <article className="card stack provider-card" data-testid="provider" aria-label={name}>
      <div className="row">
        <strong className="grow">{name}</strong>
        <span className="badge">{PROVIDER_KIND_INFO[p.kind].label}</span>
        {p.source !== 'settings' ? (
          <span className="badge" title="Where this provider comes from">
            {p.source === 'env' ? 'from environment' : p.source === 'auto' ? 'detected' : 'remote platform'}
          </span>
        ) : null}
      </div>
      <div className="small provider-where">
        {p.base_url ? <code>{p.base_url}</code> : null}
        {p.models_dir ? <code>{p.models_dir}</code> : null}
        {p.kind !== 'gguf' && p.kind !== 'ollama' ? <span className="muted">{p.has_api_key ? 'API key saved' : 'No API key'}</span> : null}
      </div>
      <p className={`small provider-status provider-status-${status.tone}`} data-testid="provider-status">
        <span className="provider-dot" aria-hidden="true" />
        {status.text}
      </p>
      {p.enabled && models.length ? (
        <div data-testid="provider-models">
          <ul className="chips" aria-label={`Models of ${name}`}>
            {shown.map((m) => (
              <li key={m.id} className="chip">
                {m.label}
                {defaultModel === m.id ? <span className="muted"> · default</span> : null}
              </li>
            ))}
          </ul>
          {models.length > SHOWN_MODELS ? (
            <details className="small">
              <summary>All {models.length} models</summary>
              <p>{models.map((m) => m.label).join(', ')}</p>
            </details>
          ) : null}
        </div>
      ) : null}
      <div className="row">
        {p.source !== 'registered' ? (
          <button type="button" className="btn btn-small" onClick={onEdit} aria-label={`Edit ${name}`}>
            Edit
          </button>
        ) : null}
        <button type="button" className="btn btn-small" onClick={() => void runTest()}>
          Test connection
        </button>
        {p.source !== 'registered' ? (
          <button type="button" className="btn btn-small" onClick={() => void run(onToggle)}>
            {p.enabled ? 'Switch off' : 'Switch on'}
          </button>
        ) : null}
        {p.source === 'settings' ? (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => setConfirming(true)}
          >
            Remove
          </button>
        ) : null}
        {test ? (
          <span className={test.ok ? 'small' : 'small provider-test-failed'} role="status">
            {test.text}
          </span>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Remove ${name}?`}
        confirmLabel="Remove provider"
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void run(onRemove);
        }}
      >
        <p>
          Its models are no longer offered. Its address{p.has_api_key ? ' and API key are' : ' is'} forgotten.
        </p>
      </ConfirmDialog>
      {failure ? (
        <p className="note note-error small" role="alert">
          {failure}
        </p>
      ) : null}
    </article>
  );
}
