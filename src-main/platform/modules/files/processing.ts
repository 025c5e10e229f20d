import path from 'node:path';
import type { ServiceContext } from '../../kernel/context.js';
import { DATABASE_FILE } from '../../db/connection.js';
import type { FileStore } from './store.js';
import { FileRows } from './rows-store.js';
import type { Job, JobQueue } from '../../jobs/queue.js';
import type { Lifecycle } from '../../kernel/lifecycle.js';
import { fileCredits } from '../../kernel/credits.js';
import { nowMicros } from '../../kernel/time.js';
import { ExtractionAborted, runExtraction } from '../../ingest/run.js';
import type { ExtractionResult } from '../../ingest/types.js';
import { nextTurn } from '../../kernel/turns.js';
import { deferHeapRelease } from '../../kernel/young-heap.js';

const PROCESS = 'file.process';
const PURGE = 'file.purge';

/**
 * File processing as durable jobs: `request` marks a file `in_progress` and enqueues it in one
 * transaction; the job extracts in a worker thread (which writes the passages), then marks the
 * file `completed` (charging credits) or `failed` (with the reason) in the transaction that
 * finishes the job. A restart re-runs unfinished jobs; the worker first clears partial passages.
 */
export class FileProcessing {
  private readonly stopping = new AbortController();
  private readonly rows: FileRows;
  /** Whether a completed file's passages still wait for their vectors (set by the files service). */
  vectorsPending: (fileId: number) => boolean = () => false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly store: FileStore,
    private readonly jobs: JobQueue,
    lifecycle: Lifecycle,
    private readonly opts: { timeoutMs?: number; maxHeapMb?: number } = {},
  ) {
    this.rows = new FileRows(ctx.db);
    // Extraction is CPU-bound and the machine may have two cores: two at a time keeps a small
    // file from waiting behind a huge one without starving the API.
    // A handler only throws when the platform shuts down mid-extraction; the job then stays
    // pending for the next start (hence many attempts, no backoff).
    jobs.register<{ fileId: number }>(PROCESS, (job) => this.run(job), {
      concurrency: 2,
      maxAttempts: 1000,
      backoffMs: () => 0,
      onGiveUp: (job, error) => this.finish(job.payload.fileId, { ok: false, code: 'crashed', error }),
    });
    jobs.register<{ fileId: number }>(PURGE, (job) => this.purge(job.payload.fileId), { concurrency: 1, maxAttempts: 5 });
    lifecycle.onShutdown(() => this.stopping.abort());
    // While a file is read the app is not quiet: the heap's release (a one-turn stall) waits for it.
    lifecycle.onShutdown(deferHeapRelease(() => this.ctx.db.open && this.rows.anyInProgress()));
    this.resumeOrphans();
  }

  /** Queues processing of a `waiting` or `failed` file (no-op otherwise); joins the caller's transaction. */
  request(fileId: number): boolean {
    const now = nowMicros();
    const db = this.ctx.db;
    return db.transaction(() => {
      const changed = this.rows.markInProgress(fileId, now);
      if (changed) this.jobs.enqueue(PROCESS, { fileId });
      return changed;
    })();
  }

  purgeLater(fileId: number): void {
    this.jobs.enqueue(PURGE, { fileId });
  }

  /**
   * Resolves once the file is no longer waiting or processing (or deleted), after `waitMs`, or
   * when `signal` aborts (the client left: its timer and listener go with it).
   */
  settled(fileId: number, waitMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        const r = this.rows.byId(fileId);
        return !r || (r.status !== 'in_progress' && r.status !== 'waiting' && !(r.status === 'completed' && this.vectorsPending(fileId)));
      };
      if (signal?.aborted || check()) return resolve();
      const done = () => {
        clearTimeout(timer);
        clearInterval(poll);
        this.ctx.events.off('file.settled', onEvent);
        this.ctx.events.off('file.vectors', onVectors);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      signal?.addEventListener('abort', done, { once: true });
      const onEvent = (id: number) => id === fileId && check() && done();
      this.ctx.events.on('file.settled', onEvent);
      // Completed waits for the file's vectors too; the embedder says when they are written (or failed).
      const onVectors = (id: number) => id === fileId && check() && done();
      this.ctx.events.on('file.vectors', onVectors);
      // A safety net in case the event is missed (e.g. the file was deleted meanwhile).
      const poll = setInterval(() => this.ctx.db.open && check() && done(), 500);
      const timer = setTimeout(done, waitMs);
    });
  }

  private async run(job: Job<{ fileId: number }>): Promise<void | (() => void)> {
    const row = this.rows.byId(job.payload.fileId);
    if (!row || row.status !== 'in_progress') return;
    if (!this.store.exists(row.id)) return () => this.finish(row.id, { ok: false, code: 'unreadable', error: 'The stored bytes of this file are missing.' });
    let result: ExtractionResult;
    try {
      result = await runExtraction(
        {
          fileId: row.id,
          path: this.store.pathOf(row.id),
          ext: row.ext,
          kind: row.kind,
          filename: row.filename,
          bytes: row.bytes,
          dbPath: path.join(this.ctx.config.dataDir, DATABASE_FILE),
        },
        { signal: this.stopping.signal, timeoutMs: this.opts.timeoutMs, maxHeapMb: this.opts.maxHeapMb },
      );
    } catch (err) {
      if (err instanceof ExtractionAborted) throw new Error('Processing was interrupted by shutdown; it resumes at the next start.');
      throw err;
    }
    if (!result.ok && result.code === 'deleted') return;
    return () => this.finish(row.id, result);
  }

  /** Records the outcome (inside the job's finishing transaction) and tells waiters after it commits. */
  private finish(fileId: number, result: ExtractionResult): void {
    const now = nowMicros();
    const row = this.rows.byId(fileId);
    if (!row || row.status !== 'in_progress') return;
    if (result.ok) {
      this.rows.markCompleted(fileId, { credits: fileCredits(row.bytes), metadata: JSON.stringify(result.metadata), passages: result.passages, now });
      this.ctx.events.emit('credits.consumed', { source: 'file', id: fileId, workspaceId: row.workspace_id, credits: fileCredits(row.bytes) });
    } else {
      this.rows.markFailed(fileId, result.error.slice(0, 1000), now);
      // The failed file's partial passages never answer a search (it is not completed); purge them.
      this.purgeLater(fileId);
      this.ctx.log.info({ fileId, reason: result.error }, 'file processing failed');
    }
    setImmediate(() => this.ctx.events.emit('file.settled', fileId));
  }

  /** Deletes passages of a file in small batches, yielding between them so requests keep flowing. */
  private async purge(fileId: number): Promise<void> {
    for (;;) {
      if (!this.ctx.db.open) return;
      const s = this.rows.status(fileId);
      // Reprocessing started again: the worker clears old passages itself.
      if (s === 'in_progress' || s === 'completed') return;
      if (this.rows.purgeSome(fileId) === 0) return;
      await nextTurn();
    }
  }

  /** A file left `in_progress` without a job (e.g. a database restored from backup) is queued again. */
  private resumeOrphans(): void {
    for (const fileId of this.rows.orphansInProgress(PROCESS)) this.jobs.enqueue(PROCESS, { fileId });
  }
}
