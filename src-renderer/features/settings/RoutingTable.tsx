import { useEffect, useState } from 'react';
import type { ProvidersSettings, RouteRule } from '../../../src-main/platform/contract/settings';
import { providerLabel } from './providers';

/** Which provider serves which model name: exact names, `prefix*`, `*suffix` or `*`, first match wins. */
export function RoutingTable({ settings, onSave }: { settings: ProvidersSettings; onSave(routes: RouteRule[], defaultModel: string | null): Promise<boolean> }) {
  const [rows, setRows] = useState<RouteRule[]>(settings.routes);
  const [defaultModel, setDefaultModel] = useState(settings.default_model ?? '');
  useEffect(() => {
    setRows(settings.routes);
    setDefaultModel(settings.default_model ?? '');
  }, [settings.routes, settings.default_model]);
  const save = () => void onSave(rows.filter((r) => r.match.trim() && r.provider).map((r) => ({ match: r.match.trim(), provider: r.provider })), defaultModel.trim() || null);
  return (
    <section className="card stack" aria-label="Model routing">
      <h2 className="section-title" style={{ margin: 0 }}>
        Model routing
      </h2>
      <p className="muted small">
        A model an agent asks for goes to the first rule that matches: an exact name, <code>prefix*</code>, <code>*suffix</code> or <code>*</code> for everything else.
      </p>
      {rows.map((r, i) => (
        <div className="row" key={i}>
          <input aria-label="Model name or pattern" className="grow" value={r.match} placeholder="e.g. gpt-4o or claude-*" onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, match: e.target.value } : x)))} />
          <select aria-label="Provider" style={{ minWidth: 200 }} value={r.provider} onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, provider: e.target.value } : x)))}>
            <option value="">Choose…</option>
            {settings.providers.map((p) => (
              <option key={p.id} value={p.id}>
                {providerLabel(p)}
              </option>
            ))}
            {r.provider && !settings.providers.some((p) => p.id === r.provider) ? <option value={r.provider}>{r.provider} (not configured)</option> : null}
          </select>
          <button type="button" className="btn-icon" aria-label="Remove rule" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
            ×
          </button>
        </div>
      ))}
      <label className="field inline">
        <span>Default model</span>
        <input value={defaultModel} placeholder="used when an agent names none" onChange={(e) => setDefaultModel(e.target.value)} />
      </label>
      <div className="row">
        <button type="button" className="btn btn-small" onClick={() => setRows([...rows, { match: '', provider: '' }])}>
          Add rule
        </button>
        <button type="button" className="btn btn-small btn-primary" onClick={save}>
          Save routing
        </button>
      </div>
    </section>
  );
}
