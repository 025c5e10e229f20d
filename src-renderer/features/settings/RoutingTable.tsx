import { useEffect, useState } from 'react';
import type { ProvidersSettings, RouteRule } from '../../../src-main/platform/contract/settings';
import { sentenceOf } from '../../api/field-errors';
import { providerLabel } from './providers';
import { Trans, useT } from '../../i18n';

/**
 * Which provider answers a model name no provider lists: exact names, `prefix*`, `*suffix` or `*`,
 * first match wins. Only rules for providers that are set up are shown (the built-in ones for
 * absent providers do nothing); saving keeps those hidden ones where they were.
 */
export function RoutingTable({ settings, onSave }: { settings: ProvidersSettings; onSave(routes: RouteRule[]): Promise<unknown> }) {
  const t = useT();
  const [rows, setRows] = useState<RouteRule[]>(settings.routes);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => setRows(settings.routes), [settings.routes]);
  const configured = new Set(settings.providers.map((p) => p.id));
  // A new rule (no provider yet) shows; a rule for a provider that is not set up does not.
  const visible = rows.map((r, i) => ({ r, i })).filter(({ r }) => !r.provider || configured.has(r.provider));
  const set = (i: number, next: RouteRule | null) => setRows(rows.flatMap((x, j) => (j !== i ? [x] : next ? [next] : [])));
  const save = async () => {
    const refused = await onSave(rows.filter((r) => r.match.trim() && r.provider).map((r) => ({ match: r.match.trim(), provider: r.provider })));
    setFailure(refused ? sentenceOf(refused) : null);
  };
  return (
    <section className="stack" aria-label={t('settings.routing.label')}>
      <p className="muted small">
        <Trans i18nKey="settings.routing.intro" components={{ code: <code /> }} />
      </p>
      {!visible.length ? <p className="small muted" data-testid="no-routing-rules">{t('settings.routing.none')}</p> : null}
      {visible.map(({ r, i }) => (
        <div className="row" key={i} data-testid="routing-rule">
          <input aria-label={t('settings.routing.pattern')} className="grow" value={r.match} placeholder={t('settings.routing.patternExample')} onChange={(e) => set(i, { ...r, match: e.target.value })} />
          <select aria-label={t('settings.routing.provider')} style={{ minWidth: 200 }} value={r.provider} onChange={(e) => set(i, { ...r, provider: e.target.value })}>
            <option value="">{t('settings.routing.choose')}</option>
            {settings.providers.map((p) => (
              <option key={p.id} value={p.id}>
                {providerLabel(p)}
              </option>
            ))}
          </select>
          <button type="button" className="btn-icon" aria-label={r.match ? t('settings.routing.removeRule', { pattern: r.match }) : t('settings.routing.removeNewRule')} onClick={() => set(i, null)}>
            ×
          </button>
        </div>
      ))}
      {failure ? (
        <p className="field-error" role="alert">
          {failure}
        </p>
      ) : null}
      <div className="row">
        <button type="button" className="btn btn-small" onClick={() => setRows([...rows, { match: '', provider: '' }])}>
          {t('settings.routing.add')}
        </button>
        <button type="button" className="btn btn-small btn-primary" onClick={() => void save()}>
          {t('settings.routing.save')}
        </button>
      </div>
    </section>
  );
}
