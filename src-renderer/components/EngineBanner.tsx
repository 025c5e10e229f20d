import { useEffect, useState } from 'react';
import type { EngineState } from '../../src-preload/api';
import { watchEngine } from '../api/bridge-transport';
import { useConnection, watchConnection } from '../stores/connection';
import { useT } from '../i18n';

/**
 * One line at the top of the window while the platform is out of reach: the desktop app's engine
 * restarting, or (in a browser) the server that served the page not answering. The window stays
 * usable, and the line clears itself once the platform answers again.
 */
export function EngineBanner() {
  const t = useT();
  const [state, setState] = useState<EngineState>({ running: true });
  const lost = useConnection((s) => s.lost);
  useEffect(() => watchEngine(setState), []);
  useEffect(() => {
    if (typeof window !== 'undefined' && !window.agentDesk) watchConnection();
  }, []);
  if (state.running && !lost) return null;
  return (
    <div className="note note-warn" role="status" data-testid="engine-banner" style={{ position: 'fixed', top: 8, left: '50%', transform: 'translateX(-50%)', zIndex: 1000, maxWidth: 'min(640px, 90vw)' }}>
      {!state.running ? (state.message ?? t('chat.connection.engine')) : t('chat.connection.lost')}
    </div>
  );
}
