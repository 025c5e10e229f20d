import { EventEmitter } from 'node:events';
import type { FromSpawner, ReaderLauncher, ToSpawner } from '../ingest/spawned.js';
import type { PortMain } from './protocol.js';

/**
 * The reader launcher of the desktop app's platform process: the spawner's protocol over a
 * MessagePort to the Electron main process, which launches each reading process as a utility
 * process (a packaged Electron cannot run as plain Node, so this process cannot fork one). The
 * port closing (the main process going away) is the launcher gone, with every reader.
 */
export function portLauncher(port: PortMain): ReaderLauncher {
  const events = new EventEmitter();
  let gone = false;
  const end = () => {
    if (gone) return;
    gone = true;
    events.emit('exit');
  };
  port.on('message', (e) => {
    const m = e.data as FromSpawner;
    if (m?.op === 'gone') end();
    else if (!gone) events.emit('message', m);
  });
  port.on('close', end);
  port.start();
  return {
    postMessage(m: ToSpawner) {
      if (!gone) port.postMessage(m);
    },
    on(event: string, listener: (...args: unknown[]) => void) {
      events.on(event, listener);
      return this;
    },
    // The parent port keeps this process running anyway; a reader's work needs nothing more.
    ref() {},
    unref() {},
  } as ReaderLauncher;

}
