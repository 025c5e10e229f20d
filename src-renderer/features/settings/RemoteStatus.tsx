import { formatTime } from '../../components/format';
import type { RemoteSettings } from './remote-api';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The connection's state in words: online, offline with its reason, or not configured. */
export function RemoteStatus({ s }: { s: RemoteSettings }) {
  const synced = s.last_sync_at ? `last refreshed ${formatTime(s.last_sync_at)}` : 'never refreshed';
  if (s.status === 'online') {
    return (
      <div className="note note-ok remote-status" role="status" data-testid="remote-status" data-status="online">
        <span className="badge badge-ok">online</span> <strong>Connected to {s.base_url}</strong>
        <div className="small">
          {plural(s.agent_count, 'remote agent')} listed · {synced}
        </div>
      </div>
    );
  }
  if (s.status === 'offline') {
    return (
      <div className="note note-error remote-status" role="status" data-testid="remote-status" data-status="offline">
        <span className="badge badge-error">offline</span> <strong>{s.base_url} cannot be reached</strong>
        {s.last_error ? <div data-testid="remote-last-error">{s.last_error}</div> : null}
        <div className="small">
          {plural(s.agent_count, 'cached agent')} still listed, but they cannot run until it is back · {synced}
        </div>
      </div>
    );
  }
  return (
    <div className="note note-muted remote-status" role="status" data-testid="remote-status" data-status="unconfigured">
      <span className="badge">not configured</span> {s.base_url ? 'Add the API key to connect.' : 'Add the base URL and API key of a remote platform to connect.'}
    </div>
  );
}
