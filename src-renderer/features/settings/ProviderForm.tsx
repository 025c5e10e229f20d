import { useId, useState } from 'react';
import type { ProviderInput, ProviderView } from '../../../src-main/platform/contract/settings';
import { PROVIDER_KINDS } from '../../../src-main/platform/contract/settings';
import { api } from '../../api';
import { providerSentence, wordErrors } from '../../api/field-errors';
import { FieldError, FormError, describedBy } from '../../components/FieldError';
import { PROVIDER_KIND_INFO, providerFormField, slugId } from './providers';

const LABELS = { kind: 'kind', label: 'name', base_url: 'base URL', api_key: 'API key', models_dir: 'models folder' };

/**
 * Adds a provider, or edits a saved one in place (`editing`): its name, address and key. A saved
 * key goes only to the address it was entered for, so a new address asks for the key again.
 * `onSave` answers the platform's refusal (or null when saved); its field sentences show under
 * the fields.
 */
export function ProviderForm({ existing, editing, onSave, onCancel }: { existing: string[]; editing?: ProviderView; onSave(p: ProviderInput): Promise<unknown>; onCancel?(): void }) {
  const uid = useId();
  const [kind, setKind] = useState<ProviderInput['kind']>(editing?.kind ?? 'openai-compatible');
  const [label, setLabel] = useState(editing?.label ?? '');
  const [url, setUrl] = useState<string>(editing ? (editing.base_url ?? '') : PROVIDER_KIND_INFO['openai-compatible'].url);
  const [key, setKey] = useState('');
  const [modelsDir, setModelsDir] = useState(editing?.models_dir ?? '');
  const [result, setResult] = useState<{ ok: boolean; text: string; models: string[] } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);

  const urlChanged = !!editing && (url.trim() || null) !== (editing.base_url ?? null);
  // The platform refuses a kept key for a new address (422); the form says so before it is sent.
  const keyAgain = !!editing?.has_api_key && urlChanged && kind !== 'gguf' && kind !== 'ollama';

  const draft = (): ProviderInput => {
    let id = editing?.id ?? slugId(label || kind);
    if (!editing) for (let i = 2; existing.includes(id); i++) id = `${slugId(label || kind)}-${i}`;
    return {
      id,
      kind,
      label: label.trim() || null,
      base_url: kind === 'gguf' ? null : url.trim() || null,
      models_dir: kind === 'gguf' ? modelsDir.trim() || null : null,
      ...(key ? { api_key: key } : {}),
      enabled: editing?.enabled ?? true,
      ...(editing ? { context_window: editing.context_window } : {}),
    };
  };

  const test = async () => {
    setResult({ ok: true, text: 'Testing…', models: [] });
    setError(null);
    try {
      const r = await api.settings.testProvider({ provider: draft() });
      setResult({ ok: r.ok, text: r.ok ? `Connected in ${Math.round(r.latency_ms)} ms: ${r.models.length} model${r.models.length === 1 ? '' : 's'}.` : providerSentence(r.error ?? 'No answer within 8 s.'), models: r.models });
    } catch (err) {
      setResult(null);
      setError(err);
    }
  };

  const submit = async () => {
    setSaving(true);
    const refused = await onSave(draft());
    setSaving(false);
    setError(refused);
    if (refused) return;
    setResult(null);
    setKey('');
    if (!editing) setLabel('');
  };

  const worded = wordErrors(error, { fields: LABELS, field: providerFormField });
  const keyHint = keyAgain ? 'A saved key is only sent to the address it was entered for: type the key again for the new address.' : null;
  const keyError = worded.fields.api_key ?? null;
  const f = (n: string) => `${uid}-${n}`;
  const title = editing ? `Edit ${editing.label || editing.id}` : 'Add a provider';
  return (
    <form
      className="card stack provider-form"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2 className="section-title" style={{ margin: 0 }}>
        {title}
      </h2>
      <div className="provider-form-grid">
        {editing ? null : (
          <div className="field">
            <label htmlFor={f('kind')}>Kind</label>
            <select
              id={f('kind')}
              value={kind}
              onChange={(e) => {
                const k = e.target.value as ProviderInput['kind'];
                setKind(k);
                setUrl(PROVIDER_KIND_INFO[k].url);
                setResult(null);
                setError(null);
              }}
            >
              {PROVIDER_KINDS.map((k) => (
                <option key={k} value={k}>
                  {PROVIDER_KIND_INFO[k].label}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor={f('label')}>Name</label>
          <input id={f('label')} value={label} placeholder="e.g. LM Studio" maxLength={100} onChange={(e) => setLabel(e.target.value)} {...describedBy(worded, 'label', f('label-error'))} />
          <FieldError id={f('label-error')} text={worded.fields.label} />
        </div>
        {kind === 'gguf' ? (
          <div className="field grow">
            <label htmlFor={f('dir')}>Models folder</label>
            <input id={f('dir')} value={modelsDir} placeholder="/path/to/gguf-models" onChange={(e) => setModelsDir(e.target.value)} {...describedBy(worded, 'models_dir', f('dir-error'))} />
            <FieldError id={f('dir-error')} text={worded.fields.models_dir} />
          </div>
        ) : (
          <div className="field grow">
            <label htmlFor={f('url')}>Base URL</label>
            <input id={f('url')} value={url} placeholder={`e.g. ${PROVIDER_KIND_INFO[kind].url || 'http://localhost:1234/v1'}`} spellCheck={false} onChange={(e) => setUrl(e.target.value)} {...describedBy(worded, 'base_url', f('url-error'))} />
            <FieldError id={f('url-error')} text={worded.fields.base_url} />
          </div>
        )}
        {kind === 'gguf' || kind === 'ollama' ? null : (
          <div className="field">
            <label htmlFor={f('key')}>API key</label>
            <input
              id={f('key')}
              type="password"
              autoComplete="off"
              value={key}
              required={keyAgain}
              placeholder={editing?.has_api_key && !keyAgain ? 'Saved: leave empty to keep it' : ''}
              onChange={(e) => setKey(e.target.value)}
              aria-invalid={keyError ? true : undefined}
              aria-describedby={keyError || keyHint ? f('key-error') : undefined}
            />
            {keyError ? (
              <FieldError id={f('key-error')} text={keyError} />
            ) : keyHint ? (
              <p id={f('key-error')} className="small field-help" data-testid="key-again">
                {keyHint}
              </p>
            ) : null}
          </div>
        )}
      </div>
      <FormError worded={worded} error={error} />
      <div className="row">
        <button type="button" className="btn" onClick={() => void test()}>
          Test connection
        </button>
        <button type="submit" className="btn btn-primary" disabled={saving || (keyAgain && !key)}>
          {editing ? 'Save changes' : 'Add provider'}
        </button>
        {onCancel ? (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        {result ? (
          <span className={result.ok ? 'small' : 'small provider-test-failed'} role="status">
            {result.text}
          </span>
        ) : null}
      </div>
      {result?.models.length ? <p className="small muted">Models: {result.models.slice(0, 5).join(', ')}{result.models.length > 5 ? ` and ${result.models.length - 5} more` : ''}</p> : null}
    </form>
  );
}
