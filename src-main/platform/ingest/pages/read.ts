import { workerEntry } from '../../kernel/worker-entry.js';
import { spawnReader, type SpawnedChild } from '../spawned.js';
import type { Readable } from './readable.js';
import type { PageReply, PageRequest } from './page-reader.js';

/**
 * Reads pages in the page reader process (page-reader.ts), never on the app's event loop. One process
 * serves every page in turn and is kept for a while after the last one (starting one costs Node's
 * boot); a page that overstays its time is ended by killing the process, and so is the work of a
 * caller that left when nobody else waits on it.
 */

export class PageUnreadable extends Error {}

export interface ReadPageOptions {
  signal?: AbortSignal;
  /** Characters of text kept (the rest of the page is not collected). */
  maxChars?: number;
  /** Time for this page, from the moment it is handed over (default 10 s). */
  timeoutMs?: number;
}

/** Longer HTML is cut here (the fetchers already stop at 2 MB). */
export const MAX_PAGE_CHARS = 4_000_000;
const TIMEOUT_MS = 10_000;
const HEAP_MB = 192;
const IDLE_MS = 30_000;

interface Waiting {
  resolve(r: Readable): void;
  reject(e: Error): void;
}

interface PageProcess {
  child: SpawnedChild;
  waiting: Map<number, Waiting>;
  idle?: NodeJS.Timeout;
  /** Killed or closed: the next page starts another process. */
  gone?: boolean;
}

let current: Promise<PageProcess> | null = null;
let nextId = 1;

function start(): Promise<PageProcess> {
  const started = (async () => {
    // Built, page-reader.js sits next to the main bundle (electron.vite.config.ts, scripts/build-serve.mjs).
    const entry = await workerEntry(import.meta.url, './page-reader.ts', './page-reader.js');
    const child = await spawnReader(entry, [`--max-old-space-size=${HEAP_MB}`]);
    const p: PageProcess = { child, waiting: new Map() };
    child.on('message', (m: PageReply) => {
      const w = p.waiting.get(m.id);
      if (!w) return;
      p.waiting.delete(m.id);
      settle(p);
      if ('error' in m) w.reject(new PageUnreadable(`The page could not be read: ${m.error}`));
      else w.resolve({ title: m.title, text: m.text });
    });
    child.on('close', () => {
      p.gone = true;
      if (current === started) current = null;
      clearTimeout(p.idle);
      const left = [...p.waiting.values()];
      p.waiting.clear();
      for (const w of left) w.reject(new PageUnreadable('The page reader stopped before the page was read.'));
    });
    return p;
  })();
  started.catch(() => {
    if (current === started) current = null;
  });
  return started;
}

/** With nothing to read, the process keeps the app from exiting no more, and ends after a while. */
function settle(p: PageProcess): void {
  if (p.waiting.size) return;
  p.child.unref();
  clearTimeout(p.idle);
  p.idle = setTimeout(() => end(p), IDLE_MS);
  p.idle.unref();
}

function end(p: PageProcess, why?: Error): void {
  p.gone = true;
  const left = [...p.waiting.values()];
  p.waiting.clear();
  clearTimeout(p.idle);
  p.child.kill();
  if (why) for (const w of left) w.reject(why);
}

/** The readable text of `html`, read in the page reader; fails with PageUnreadable (or the signal's reason). */
export async function readPage(html: string, opts: ReadPageOptions = {}): Promise<Readable> {
  const { signal } = opts;
  signal?.throwIfAborted();
  let starting = (current ??= start());
  let p = await starting;
  while (p.gone) {
    if (!current || current === starting) current = start();
    starting = current;
    p = await starting;
  }
  signal?.throwIfAborted();
  const id = nextId++;
  const timeoutMs = opts.timeoutMs ?? TIMEOUT_MS;
  const msg: PageRequest = { id, html: html.length > MAX_PAGE_CHARS ? html.slice(0, MAX_PAGE_CHARS) : html, maxChars: opts.maxChars ?? 100_000 };
  return new Promise<Readable>((resolve, reject) => {
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const timer = setTimeout(() => {
      // The process may be stuck on this page: it goes, with whatever else it was given.
      end(p, new PageUnreadable(`The page could not be read: reading it took longer than ${Math.round(timeoutMs / 1000)} seconds.`));
    }, timeoutMs);
    const onAbort = () => {
      p.waiting.delete(id);
      finish();
      // Nobody else waits on the process: its work on this page stops with it.
      if (!p.waiting.size) end(p);
      reject(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    p.waiting.set(id, {
      resolve: (r) => {
        finish();
        resolve(r);
      },
      reject: (e) => {
        finish();
        reject(e);
      },
    });
    clearTimeout(p.idle);
    p.child.ref();
    p.child.send(msg);
  });
}
