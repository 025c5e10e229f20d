/**
 * The page reader: a process, launched as file readers are (ingest/spawned.ts), that turns the
 * HTML of fetched pages into readable text. A page is whatever a stranger's server sent: parsing
 * it here keeps even a slow or huge one off the app's event loop, and a page that takes too long
 * is ended by killing this process (read.ts), whatever it is doing.
 */
import { readableText } from './readable.js';
import { readerParent } from '../../kernel/reader-launcher.js';

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

// Launched by the app itself under Node or by Electron's main process alike (kernel/reader-launcher.ts).
const parent = readerParent();
parent.onMessage((m) => read(m as PageRequest, (r) => parent.send(r)));
