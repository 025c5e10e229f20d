import { useEffect, useState } from 'react';
import type { ProvidersSettings, RouteRule } from '../../../src-main/platform/contract/settings';
import { providerLabel } from './providers';
import { api } from '../../api';
import { useLoad } from '../../components/use-load';

/** Which provider serves which model name: exact names, `prefix*`, `*suffix` or `*`, first match wins. */
export function RoutingTable({ settings, onSave }: { settings: ProvidersSettings; onSave(routes: RouteRule[], defaultModel: string | null): Promise<boolean> }) {
  const [rows, setRows] = useState<RouteRule[]>(settings.routes);
  const [defaultModel, setDefaultModel] = useState(settings.default_model ?? '');
  useEffect(() => {
    setRows(settings.routes);
    setDefaultModel(settings.default_model ?? '');
  }, [settings.routes, settings.default_model]);
  // What an agent without a model answer runs on now, and the models to choose from.
  const effective = useLoad(() => Promise.all([api.models.default(), api.models.list()]), [settings]);
  const [current, served] = effective.data ?? [null, []];
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
        <input value={defaultModel} list="default-model-choices" placeholder={current?.model ? 'automatic (see below)' : 'used when an agent names none'} onChange={(e) => setDefaultModel(e.target.value)} />
        <datalist id="default-model-choices">
          {served.map((m) => (
            <option key={`${m.provider}:${m.id}`} value={m.id} />
          ))}
        </datalist>
      </label>
      <p className="small muted" data-testid="effective-default-model">
        {current?.model
          ? current.source === 'setting'
            ? `Agents that name no model run on ${current.model}.`
            : `No default is set: agents that name no model run on ${current.model}, the first model of ${settings.providers.find((p) => p.id === current.provider) ? providerLabel(settings.providers.find((p) => p.id === current.provider)!) : current.provider}.`
          : 'No provider lists a model yet: agents that name no model cannot run.'}
      </p>
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
