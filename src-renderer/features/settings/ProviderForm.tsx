import { useId, useState } from 'react';
import type { ProviderInput, ProviderView } from '../../../src-main/platform/contract/settings';
import { PROVIDER_KINDS } from '../../../src-main/platform/contract/settings';
import { api, ops } from '../../api';
import { providerSentence, wordErrors } from '../../api/field-errors';
import { FieldError, FormError, describedBy } from '../../components/FieldError';
import { PROVIDER_KIND_INFO, kindLabel, providerFormField, slugId } from './providers';
import { useT } from '../../i18n';


/**
 * Adds a provider, or edits a saved one in place (`editing`): its name, address and key. A saved
 * key goes only to the address it was entered for, so a new address asks for the key again.
 * `onSave` answers the platform's refusal (or null when saved); its field sentences show under
 * the fields.
 */
export function ProviderForm({ existing, editing, onSave, onCancel }: { existing: string[]; editing?: ProviderView; onSave(p: ProviderInput): Promise<unknown>; onCancel?(): void }) {
  const uid = useId();
  const t = useT();
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
    setResult({ ok: true, text: t('settings.providerCard.testing'), models: [] });
    setError(null);
    try {
      const r = await api.call(ops.testProvider, { body: { provider: draft() } });
      setResult({ ok: r.ok, text: r.ok ? t('settings.providerCard.connected', { ms: Math.round(r.latency_ms), count: r.models.length }) : providerSentence(r.error ?? 'No answer within 8 s.'), models: r.models });
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

  const fields = { kind: t('settings.providerForm.kind'), label: t('settings.providerForm.name'), base_url: t('settings.providerForm.baseUrl'), api_key: t('settings.providerForm.apiKey'), models_dir: t('settings.providerForm.modelsDir') };
  // Inside a sentence ("Fill in the base URL."), each field by its name in running text.
  const worded = wordErrors(error, { fields: t('settings.providerForm.inSentence', { returnObjects: true }), field: providerFormField });
  const keyHint = keyAgain ? t('settings.providerForm.keyAgain') : null;
  const keyError = worded.fields.api_key ?? null;
  const f = (n: string) => `${uid}-${n}`;
  const title = editing ? t('settings.providerCard.editName', { name: editing.label || editing.id }) : t('settings.providerForm.addTitle');
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
            <label htmlFor={f('kind')}>{fields.kind}</label>
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
                  {kindLabel(k)}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor={f('label')}>{fields.label}</label>
          <input id={f('label')} value={label} placeholder={t('settings.providerForm.nameExample')} maxLength={100} onChange={(e) => setLabel(e.target.value)} {...describedBy(worded, 'label', f('label-error'))} />
          <FieldError id={f('label-error')} text={worded.fields.label} />
        </div>
        {kind === 'gguf' ? (
          <div className="field grow">
            <label htmlFor={f('dir')}>{fields.models_dir}</label>
            <input id={f('dir')} value={modelsDir} placeholder={t('settings.providerForm.modelsDirExample')} onChange={(e) => setModelsDir(e.target.value)} {...describedBy(worded, 'models_dir', f('dir-error'))} />
            <FieldError id={f('dir-error')} text={worded.fields.models_dir} />
          </div>
        ) : (
          <div className="field grow">
            <label htmlFor={f('url')}>{fields.base_url}</label>
            <input id={f('url')} value={url} placeholder={t('settings.providerForm.example', { value: PROVIDER_KIND_INFO[kind].url || 'http://localhost:1234/v1' })} spellCheck={false} onChange={(e) => setUrl(e.target.value)} {...describedBy(worded, 'base_url', f('url-error'))} />
            <FieldError id={f('url-error')} text={worded.fields.base_url} />
          </div>
        )}
        {kind === 'gguf' || kind === 'ollama' ? null : (
          <div className="field">
            <label htmlFor={f('key')}>{fields.api_key}</label>
            <input
              id={f('key')}
              type="password"
              autoComplete="off"
              value={key}
              required={keyAgain}
              placeholder={editing?.has_api_key && !keyAgain ? t('settings.providerForm.keySaved') : ''}
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
          {t('settings.providerCard.test')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={saving || (keyAgain && !key)}>
          {editing ? t('settings.providerForm.saveChanges') : t('settings.providerForm.add')}
        </button>
        {onCancel ? (
          <button type="button" className="btn" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        ) : null}
        {result ? (
          <span className={result.ok ? 'small' : 'small provider-test-failed'} role="status">
            {result.text}
          </span>
        ) : null}
      </div>
      {result?.models.length ? (
        <p className="small muted">
          {result.models.length > 5
            ? t('settings.providerForm.modelsMore', { models: result.models.slice(0, 5).join(', '), count: result.models.length - 5 })
            : t('settings.providerForm.models', { models: result.models.join(', ') })}
        </p>
      ) : null}
    </form>
  );
}
