/**
 * The page reader: a process, forked by the reader spawner as file readers are, that turns the
 * HTML of fetched pages into readable text. A page is whatever a stranger's server sent: parsing
 * it here keeps even a slow or huge one off the app's event loop, and a page that takes too long
 * is ended by killing this process (read.ts), whatever it is doing.
 */
import { readableText } from './readable.js';

export interface PageRequest {
  id: number;
  html: string;
  maxChars: number;
}

export type PageReply = { id: number; title: string; text: string } | { id: number; error: string };

function read(m: PageRequest, reply: (r: PageReply) => void): void {
  try {
    reply({ id: m.id, ...readableText(m.html, m.maxChars) });
  } catch (err) {
    reply({ id: m.id, error: String((err as Error)?.message ?? err) });
  }
}

// Launched by Electron's main process as a utility process, the parent is `process.parentPort`;
// forked by the spawner, it is the IPC channel.
const parentPort = (process as NodeJS.Process & { parentPort?: { on(e: 'message', l: (ev: { data: unknown }) => void): unknown; postMessage(m: unknown): void } }).parentPort;
if (parentPort) parentPort.on('message', (e) => read(e.data as PageRequest, (r) => parentPort.postMessage(r)));
else {
  process.on('message', (m: PageRequest) => read(m, (r) => process.send!(r)));
  // The app went away (even by kill -9): nothing left to read for.
  process.on('disconnect', () => process.exit(0));
}
