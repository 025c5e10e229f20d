import type { LocalServer, ModelSetupBody } from '../../../src-main/platform/contract/models';
import { api, ops } from '../../api';
import { useLoad } from '../../components/use-load';
import { useT } from '../../i18n';

/** Ollama and LM Studio found on their usual ports of this computer: one click to use. */
export function LocalServers({ busy, onUse }: { busy: string | null; onUse(name: string, body: ModelSetupBody): void }) {
  const found = useLoad(() => api.call(ops.listLocalServers, {}), []);
  const t = useT();
  const list: LocalServer[] = found.data ?? [];
  return (
    <article className="card stack setup-card" aria-labelledby="setup-local">
      <h3 id="setup-local">{t('setup.local.title')}</h3>
      {found.loading && !found.data ? <p className="muted small">{t('setup.local.looking')}</p> : null}
      <ul className="setup-servers">
        {list.map((s) => (
          <li key={s.kind} className="row">
            <span className={`dot ${s.found ? 'dot-ok' : ''}`} aria-hidden="true" />
            <span className="grow">
              <strong>{s.name}</strong>{' '}
              <span className="muted small">
                {s.found ? t('setup.local.running', { count: s.models.length }) : t('setup.local.notRunning', { where: s.url.replace(/^https?:\/\//, '').replace(/\/v1$/, '') })}
              </span>
            </span>
            {s.found ? (
              <button
                type="button"
                className="btn btn-primary btn-small"
                disabled={busy !== null}
                onClick={() => onUse(s.name, { kind: s.kind, base_url: s.url })}
              >
                {busy === s.name ? t('setup.connecting') : t('setup.local.use', { name: s.name })}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <div className="row">
        <button type="button" className="btn btn-small" onClick={() => void found.reload()} disabled={found.loading}>
          {t('setup.local.again')}
        </button>
        <span className="muted small">{t('setup.local.hint')}</span>
      </div>
    </article>
  );
}
