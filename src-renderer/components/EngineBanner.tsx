import { useEffect, useState } from 'react';
import type { EngineState } from '../../src-preload/api';
import { watchEngine } from '../api/bridge-transport';

/** A line at the top of the window while the app's engine is down and restarting (the window stays usable). */
export function EngineBanner() {
  const [state, setState] = useState<EngineState>({ running: true });
  useEffect(() => watchEngine(setState), []);
  if (state.running) return null;
  return (
    <div className="note note-warn" role="status" data-testid="engine-banner" style={{ position: 'fixed', top: 8, left: '50%', transform: 'translateX(-50%)', zIndex: 1000, maxWidth: 'min(640px, 90vw)' }}>
      {state.message ?? "Agent Desk's engine stopped and is restarting…"}
    </div>
  );
}
