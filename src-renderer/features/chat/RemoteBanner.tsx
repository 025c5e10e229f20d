import { useEffect } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { useRemote } from '../../stores/remote';
import { RemoteLink } from '../settings/RemoteLink';
import { useT } from '../../i18n';

/** Above the conversation when the chosen agent is remote and its platform cannot run it now. */
export function RemoteBanner({ agent }: { agent: Agent }) {
  const t = useT();
  const { settings, load } = useRemote();
  useEffect(() => {
    // Each time a remote agent is chosen: the status may have changed since it was last read.
    void load();
  }, [agent.id, load]);
  if (!settings || settings.status === 'online') return null;
  return (
    <div className="note note-warn remote-banner" role="status" data-testid="remote-banner" data-status={settings.status}>
      {settings.status === 'offline' ? (
        <>
          <strong>{t('chat.remote.offline')}</strong>
          {settings.last_error ? <div className="small">{settings.last_error}</div> : null}
        </>
      ) : (
        <strong>{t('chat.remote.notConfigured')}</strong>
      )}{' '}
      <RemoteLink />
    </div>
  );
}
