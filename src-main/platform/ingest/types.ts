import type { ExtractionLimits } from './limits.js';

/** What the processing worker is given and what it answers (plain data: it crosses a process boundary). */
export interface ExtractionInput {
  fileId: number;
  /** The stored bytes (`<dataDir>/files/<id>`). */
  path: string;
  ext: string;
  kind: string;
  filename: string;
  bytes: number;
  /** The platform database: the worker writes passages itself, in short transactions. */
  dbPath: string;
  /** Set by the runner; extractors fall back to `limitsFor(bytes)`. */
  limits?: ExtractionLimits;
  /** Set by the runner: the memory watchdog thread's file (watchdog.ts `rssWatchdogEntry`). */
  watchdog?: string;
}

export type ExtractionResult =
  | { ok: true; passages: number; chars: number; metadata: Record<string, unknown> }
  | { ok: false; error: string; code: 'unreadable' | 'deleted' | 'crashed' | 'timeout' | 'aborted' | 'too_large' };

/** Where an extractor sends text as it reads it (in document order). */
export interface TextSink {
  text(s: string): void;
}

/** A failure that explains itself to the user: the file is damaged, encrypted, empty or not what its name says. */
export class UnreadableFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableFileError';
  }
}

export type Extractor = (file: ExtractionInput, sink: TextSink) => Promise<Record<string, unknown>>;
