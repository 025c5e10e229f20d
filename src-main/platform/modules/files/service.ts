import type { ServiceContext } from '../../kernel/context.js';
import { offsetOf, parseId } from '../../kernel/context.js';
import { NotFoundError, ValidationError } from '../../kernel/errors.js';
import type { AgentsService } from '../agents/service.js';
import type { AgentFileSet, AgentFileSetLinked, FileDetail, FileListQuery, FileObject, FileStatus } from '../../contract/files.js';
import { ACCEPTED_EXTENSIONS, extensionOf, kindOf } from '../../ingest/kinds.js';
import { isoOffset, nowMicros } from '../../kernel/time.js';
import { FileStore } from './store.js';
import { FileRows, type FileRow } from './rows-store.js';
import { FileProcessing } from './processing.js';
import type { Lifecycle } from '../../kernel/lifecycle.js';
import type { JobQueue } from '../../jobs/queue.js';
import { fileUploadSpec, type ReceivedUpload } from './upload.js';
import { UploadFields } from '../../contract/files.js';
import { laravelErrors, say } from '../../contract/messages.js';
import { isObject, readStoredJson } from '../../kernel/stored-json.js';

export type { FileRow } from './rows-store.js';

export function toFile(r: FileRow): FileObject {
  const f: FileObject = {
    id: r.id,
    object: 'file',
    bytes: r.bytes,
    created_at: isoOffset(r.created_at),
    filename: r.filename,
    credits: r.credits,
    status: r.status,
  };
  if (r.status === 'failed') f.error = r.error ?? 'Processing failed.';
  const vectors = (r as Seen).vectors;
  if (vectors) f.vectors = vectors;
  return f;
}

/** A row as answers show it: `completed` only once its vectors are written (`vectors` says when they are pending or failed). */
type Seen = FileRow & { vectors?: 'pending' | 'failed' };

/** What the retrieval module says of processed files' vectors (CONTRACT.md "Lean start"); none listed: all written. */
export type VectorState = (fileIds: number[]) => Map<number, 'pending' | 'failed'>;

/** A finished upload or generated file, sitting fsynced under a temp name. */
export interface IncomingFile {
  tmpPath: string;
  filename: string;
  bytes: number;
  sha256: string;
}

/** Names are kept as data: only control characters go, and the length is bounded. */
export function cleanFilename(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what goes
  const s = name.normalize('NFC').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (s.length <= 255) return s;
  const ext = extensionOf(s);
  return ext ? `${s.slice(0, 254 - ext.length)}.${ext}` : s.slice(0, 255);
}

/** The 422 for a name whose extension is not in the spec's table (Laravel's `mimes` wording). */
export function checkExtension(filename: string): { ext: string; kind: string } {
  const ext = extensionOf(filename);
  const kind = kindOf(ext);
  if (!kind) throw ValidationError.field('file', say.must('file', `be a file of type: ${ACCEPTED_EXTENSIONS.join(', ')}`));
  return { ext, kind };
}

/**
 * Files of a workspace: stored bytes, processing into passages (FileProcessing), full-text
 * retrieval (files-search) and links to agents.
 */
export class FilesService {
  readonly store: FileStore;
  readonly processing: FileProcessing;
  private readonly rows: FileRows;
  /** Set by the platform: the retrieval module's view of the files' vectors. */
  vectorState: VectorState = () => new Map();

  /**
   * Rows as answers show them: a completed file whose passages still lack vectors from the
   * selected embedder reads `in_progress` with `vectors: "pending"` (its text is read: full text
   * finds its passages meanwhile); one whose embedding failed reads `completed` with `vectors: "failed"`.
   */
  private seen<T extends FileRow>(rows: T[]): (T & { vectors?: 'pending' | 'failed' })[] {
    const ids = rows.filter((r) => r.status === 'completed' && r.passages > 0).map((r) => r.id);
    const state = ids.length ? this.vectorState(ids) : new Map<number, 'pending' | 'failed'>();
    if (!state.size) return rows;
    return rows.map((r) => {
      const s = state.get(r.id);
      return s === 'pending' ? { ...r, status: 'in_progress' as const, vectors: 'pending' as const } : s === 'failed' ? { ...r, vectors: 'failed' as const } : r;
    });
  }

  constructor(
    private readonly ctx: ServiceContext,
    private readonly agents: AgentsService,
    jobs: JobQueue,
    lifecycle: Lifecycle,
  ) {
    this.store = new FileStore(ctx.config.dataDir);
    this.rows = new FileRows(ctx.db);
    this.processing = new FileProcessing(ctx, this.store, jobs, lifecycle);
    this.processing.vectorsPending = (id) => this.vectorState([id]).get(id) === 'pending';
    // Only the data dir's owner cleans stray temp files (another process may be writing them),
    // at start-up or when it inherits the data dir.
    lifecycle.onPrimary(() => this.store.reconcile((id) => !!this.rows.byId(id), this.ctx.log));
  }

  /**
   * A page of the workspace's files by `created_at` (then id, so equal times page stably), with
   * the ext filters: `status`, and `q` as a case-insensitive substring of the filename (instr, not
   * LIKE, so `%` and `_` in a name are plain characters).
   */
  list(workspaceId: number, q: FileListQuery): FileObject[] {
    // Filenames are stored NFC (cleanFilename), so the needle is too: "é" typed either way matches.
    const needle = q.q ? q.q.normalize('NFC').toLowerCase() : null;
    // The status filter matches the status the answer shows: a completed file whose vectors are
    // still coming reads in_progress, so it is filtered as in_progress too (CONTRACT.md "Lean start").
    const pending = q.status === 'completed' || q.status === 'in_progress' ? this.pendingVectors(workspaceId) : [];
    const rows = this.rows.list(q.order === 'asc' ? 'asc' : 'desc', {
      workspaceId,
      status: q.status ?? null,
      pending: JSON.stringify(pending),
      q: needle,
      limit: q.per_page,
      offset: offsetOf(q.page, q.per_page),
    });
    return this.seen(rows).map(toFile);
  }

  /** The workspace's completed files that read in_progress because their vectors are still coming. */
  private pendingVectors(workspaceId: number): number[] {
    const ids = this.rows.completedWithPassages(workspaceId);
    if (!ids.length) return [];
    return [...this.vectorState(ids)].filter(([, s]) => s === 'pending').map(([id]) => id);
  }

  /** The row of a file the user can see, or 404 `File not found`. */
  row(userId: number, rawId: string | number): FileRow {
    const id = parseId(rawId);
    const row = id ? this.rows.visible(id, userId) : undefined;
    if (!row) throw new NotFoundError('File not found');
    return this.seen([row])[0];
  }

  get(userId: number, rawId: string | number): FileObject {
    return toFile(this.row(userId, rawId));
  }

  detail(userId: number, rawId: string | number): FileDetail {
    const r = this.row(userId, rawId);
    return { ...toFile(r), metadata: readStoredJson<Record<string, unknown> | null>(r.metadata, { column: 'files.metadata', id: r.id }, null, isObject), passages: r.passages };
  }

  /**
   * Records a finished temp file as a new `waiting` file; the row and the rename commit together.
   * The same bytes already stored in the workspace (sha256, size, extension) are that file: the temp copy
   * is dropped and the existing file is answered, so an upload repeated by a client is one file.
   */
  createFromIncoming(workspaceId: number, userId: number | null, incoming: IncomingFile): FileObject {
    const filename = cleanFilename(incoming.filename);
    const { ext, kind } = checkExtension(filename);
    const now = nowMicros();
    try {
      const id = this.ctx.db.transaction(() => {
        const same = this.rows.sameBytes(workspaceId, incoming.sha256, incoming.bytes, ext);
        if (same) {
          this.store.discard(incoming.tmpPath);
          return same.id;
        }
        const id = this.rows.insertWaiting({ workspaceId, userId, filename, ext, kind, bytes: incoming.bytes, sha256: incoming.sha256, now });
        // Inside the transaction: a failed rename rolls the row back. A crash after the rename but
        // before the commit leaves bytes without a row, which start-up reports. The directory is
        // synced after the commit (upload awaits it before answering).
        this.store.commit(incoming.tmpPath, id);
        return id;
      }).immediate();
      return toFile(this.rows.byId(id)!);
    } catch (err) {
      this.store.discard(incoming.tmpPath);
      throw err;
    }
  }

  /** What Upload File accepts, for the HTTP layer's multipart receiver (it streams the part to a temp file). */
  uploadSpec() {
    return fileUploadSpec(this.store, this.ctx.config.maxUploadBytes);
  }

  /**
   * Upload File, once the body is on disk: records a `waiting` file (or answers the same bytes
   * already stored), and with `process=true` processes it before answering.
   */
  async upload(workspaceId: number, userId: number, received: ReceivedUpload): Promise<FileObject> {
    const { fields, ...file } = received;
    const parsed = UploadFields.safeParse(fields, { reportInput: true });
    if (!parsed.success) {
      this.store.discard(file.tmpPath);
      throw new ValidationError(laravelErrors(parsed.error.issues));
    }
    const created = this.createFromIncoming(workspaceId, userId, file);
    // The upload is answered once its rename is durable.
    await this.store.syncDir();
    return parsed.data.process ? this.process(userId, created.id) : created;
  }

  /** Stores bytes made by the platform itself (e.g. a generated image) as a file of the workspace. */
  createFromBuffer(workspaceId: number, filename: string, bytes: Buffer, opts: { userId?: number } = {}): FileObject {
    checkExtension(cleanFilename(filename));
    const { tmpPath, sha256 } = this.store.writeTemp(bytes);
    const created = this.createFromIncoming(workspaceId, opts.userId ?? null, { tmpPath, filename, bytes: bytes.length, sha256 });
    // Synchronous callers (a tool's result): the rename is atomic already; its sync follows in the background.
    void this.store.syncDir();
    return created;
  }

  /** Deletes the row and links at once, the bytes right after, the passages in the background. */
  delete(userId: number, rawId: string | number): { id: string; object: 'file'; deleted: true } {
    const row = this.row(userId, rawId);
    this.ctx.db.transaction(() => {
      this.rows.delete(row.id);
      this.processing.purgeLater(row.id);
    }).immediate();
    this.store.remove(row.id);
    return { id: String(row.id), object: 'file', deleted: true };
  }

  /**
   * Process File: a completed file comes back unchanged (nothing charged again); a waiting or
   * failed one is queued; then waits until it settles (up to `waitMs`, then answers the current state).
   */
  async process(userId: number, rawId: string | number, waitMs = 100_000, signal?: AbortSignal): Promise<FileObject> {
    const row = this.row(userId, rawId);
    if (row.status === 'completed') return toFile(row);
    this.processing.request(row.id);
    await this.processing.settled(row.id, waitMs, signal);
    const now = this.rows.byId(row.id);
    if (!now) throw new NotFoundError('File not found');
    return toFile(this.seen([now])[0]);
  }

  linkedFileIds(agentId: number): number[] {
    return this.rows.linkedFileIds(agentId);
  }

  agentFiles(userId: number, rawAgentId: string | number): AgentFileSet {
    const agent = this.agents.get(userId, rawAgentId);
    const rows = this.seen(this.rows.linkedRows(agent.id));
    return { id: agent.id, files: rows.map(toFile), status: setStatus(rows) };
  }

  /** Links files to an agent (idempotent); linking a `waiting` file starts its processing. */
  link(userId: number, rawAgentId: string | number, fileIds: number[]): AgentFileSetLinked {
    const agent = this.agents.get(userId, rawAgentId);
    const errors: Record<string, string[]> = {};
    const rows = fileIds.map((id, i) => {
      const r = this.rows.visible(id, userId);
      if (!r) errors[`file_ids.${i}`] = [say.invalid(`file_ids.${i}`)];
      return r;
    });
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const now = nowMicros();
    this.ctx.db.transaction(() => {
      for (const r of rows) {
        this.rows.link(agent.id, r!.id, now);
        if (r!.status === 'waiting') this.processing.request(r!.id);
      }
    }).immediate();
    const linked = this.seen(this.rows.linkedRows(agent.id));
    const count = (s: FileStatus[]) => linked.filter((r) => s.includes(r.status)).length;
    return {
      id: agent.id,
      files: linked.map(toFile),
      status: setStatus(linked),
      files_count: { total: linked.length, completed: count(['completed']), failed: count(['failed']), in_progress: count(['waiting', 'in_progress']) },
    };
  }

  unlink(userId: number, rawAgentId: string | number, rawFileId: string | number): { id: number; file: FileObject; removed: boolean } {
    const agent = this.agents.get(userId, rawAgentId);
    const file = this.row(userId, rawFileId);
    const removed = this.rows.unlink(agent.id, file.id);
    return { id: agent.id, file: toFile(file), removed };
  }

  /** A file's extracted text, passage by passage in order, a page at a time (MCP read_file). Passages overlap slightly by design. */
  passages(userId: number, rawId: string | number, page: { offset: number; limit: number }): { file: FileObject; total: number; passages: { ordinal: number; text: string }[] } {
    const r = this.row(userId, rawId);
    return { file: toFile(r), total: this.rows.passageCount(r.id), passages: this.rows.passagePage(r.id, page.limit, page.offset) };
  }
}

/** CONTRACT.md "Files": in_progress while any is processing, failed if any failed, else completed. */
function setStatus(rows: Pick<FileRow, 'status'>[]): AgentFileSet['status'] {
  if (rows.some((r) => r.status === 'waiting' || r.status === 'in_progress')) return 'in_progress';
  if (rows.some((r) => r.status === 'failed')) return 'failed';
  return 'completed';
}
