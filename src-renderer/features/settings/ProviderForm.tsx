import { useState } from 'react';
import type { ProviderInput } from '../../../src-main/platform/contract/settings';
import { PROVIDER_KINDS } from '../../../src-main/platform/contract/settings';
import { api, messageOf } from '../../api';
import { PROVIDER_KIND_INFO, slugId } from './providers';

/** Add a provider: test the connection (which lists its models) before saving it. */
export function ProviderForm({ existing, onAdd }: { existing: string[]; onAdd(p: ProviderInput): Promise<boolean> }) {
  const [kind, setKind] = useState<ProviderInput['kind']>('openai-compatible');
  const [label, setLabel] = useState('');
  const [url, setUrl] = useState<string>(PROVIDER_KIND_INFO['openai-compatible'].url);
  const [key, setKey] = useState('');
  const [modelsDir, setModelsDir] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string; models: string[] } | null>(null);

  const draft = (): ProviderInput => {
    let id = slugId(label || kind);
    for (let i = 2; existing.includes(id); i++) id = `${slugId(label || kind)}-${i}`;
    return {
      id,
      kind,
      label: label.trim() || null,
      base_url: kind === 'gguf' ? null : url.trim() || null,
      models_dir: kind === 'gguf' ? modelsDir.trim() || null : null,
      ...(key ? { api_key: key } : {}),
      enabled: true,
    };
  };

  const test = async () => {
    setResult({ ok: true, text: 'Testing…', models: [] });
    try {
      const r = await api.settings.testProvider({ provider: draft() });
      setResult({ ok: r.ok, text: r.ok ? `Connected in ${Math.round(r.latency_ms)} ms: ${r.models.length} model${r.models.length === 1 ? '' : 's'}.` : `Failed: ${r.error ?? 'no answer'}`, models: r.models });
    } catch (err) {
      setResult({ ok: false, text: `Failed: ${messageOf(err)}`, models: [] });
    }
  };

  return (
    <form
      className="card stack"
      aria-label="Add a provider"
      onSubmit={(e) => {
        e.preventDefault();
        void onAdd(draft()).then((ok) => {
          if (!ok) return;
          setLabel('');
          setKey('');
          setResult(null);
        });
      }}
    >
      <h2 className="section-title" style={{ margin: 0 }}>
        Add a provider
      </h2>
      <div className="row">
        <label className="field">
          <span>Kind</span>
          <select
            value={kind}
            onChange={(e) => {
              const k = e.target.value as ProviderInput['kind'];
              setKind(k);
              setUrl(PROVIDER_KIND_INFO[k].url);
              setResult(null);
            }}
          >
            {PROVIDER_KINDS.map((k) => (
              <option key={k} value={k}>
                {PROVIDER_KIND_INFO[k].label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Name</span>
          <input value={label} placeholder="e.g. LM Studio" onChange={(e) => setLabel(e.target.value)} />
        </label>
        {kind === 'gguf' ? (
          <label className="field grow">
            <span>Models folder</span>
            <input value={modelsDir} placeholder="/path/to/gguf-models" onChange={(e) => setModelsDir(e.target.value)} />
          </label>
        ) : (
          <label className="field grow">
            <span>Base URL</span>
            <input value={url} onChange={(e) => setUrl(e.target.value)} />
          </label>
        )}
        {kind === 'gguf' || kind === 'ollama' ? null : (
          <label className="field">
            <span>API key</span>
            <input type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
          </label>
        )}
      </div>
      <div className="row">
        <button type="button" className="btn" onClick={() => void test()}>
          Test connection
        </button>
        <button type="submit" className="btn btn-primary">
          Add provider
        </button>
        {result ? (
          <span className={result.ok ? 'small' : 'small badge badge-error'} role="status">
            {result.text}
          </span>
        ) : null}
      </div>
      {result?.models.length ? <p className="small muted">Models: {result.models.join(', ')}</p> : null}
    </form>
  );
}
