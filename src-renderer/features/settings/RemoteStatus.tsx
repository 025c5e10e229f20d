import { formatTime } from '../../components/format';
import type { RemoteSettings } from '../../../src-main/platform/contract/remote';
import { providerSentence } from '../../api/field-errors';
import { useT } from '../../i18n';

/** The connection's state in words: online, offline with its reason, or not configured. */
export function RemoteStatus({ s }: { s: RemoteSettings }) {
  const t = useT();
  const synced = s.last_sync_at ? t('settings.remote.lastRefreshed', { when: formatTime(s.last_sync_at) }) : t('settings.remote.neverRefreshed');
  if (s.status === 'online') {
    return (
      <div className="note note-ok remote-status" role="status" data-testid="remote-status" data-status="online">
        <span className="badge badge-ok">{t('settings.remote.online')}</span> <strong>{t('settings.remote.connectedTo', { url: s.base_url })}</strong>
        <div className="small">
          {t('settings.remote.listed', { count: s.agent_count })} · {synced}
        </div>
      </div>
    );
  }
  if (s.status === 'offline') {
    return (
      <div className="note note-error remote-status" role="status" data-testid="remote-status" data-status="offline">
        <span className="badge badge-error">{t('settings.remote.offline')}</span> <strong>{t('settings.remote.cannotReach', { url: s.base_url })}</strong>
        {s.last_error ? <div data-testid="remote-last-error">{providerSentence(s.last_error)}</div> : null}
        <div className="small">
          {t('settings.remote.cached', { count: s.agent_count })} · {synced}
        </div>
      </div>
    );
  }
  return (
    <div className="note note-muted remote-status" role="status" data-testid="remote-status" data-status="unconfigured">
      <span className="badge">{t('settings.remote.notConfigured')}</span> {s.base_url ? t('settings.remote.addKey') : t('settings.remote.addUrlAndKey')}
    </div>
  );
}
