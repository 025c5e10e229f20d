import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ServiceContext } from '../../kernel/context.js';
import type { Lifecycle } from '../../kernel/lifecycle.js';
import { ConflictError, NotFoundError, ValidationError } from '../../kernel/errors.js';
import { parseId } from '../../kernel/context.js';
import type { ModelDownload, ModelDownloadCreate } from '../../contract/models.js';
import { DownloadsStore, type DownloadRow } from './store.js';
import { fsyncFile } from '../../kernel/fsync.js';
import { say } from '../../contract/messages.js';
import { pinnedSha256 } from './curated.js';

/** Where a download writes: the models folder (asked each time, as Settings may change it), and a refresh of the model listings. */
export interface DownloadTarget {
  folder(): string;
  changed(): void;
}

/** Progress is written to the database every this many bytes (the live figure is kept in memory). */
const PERSIST_EVERY = 4 * 1024 * 1024;
const MAX_RUNNING = 2;
/** A hub that sends nothing for this long is given up on (the download can be resumed). */
const IDLE_MS = 60_000;
/** The largest model file downloaded, unless AGENT_DESK_MAX_DOWNLOAD_MB says otherwise: bigger than any model a desktop runs. */
const DEFAULT_MAX_BYTES = 64 * 1024 ** 3;
const GGUF_MAGIC = 'GGUF';

const gb = (n: number) => `${(n / 1024 ** 3).toFixed(n < 1024 ** 3 ? 3 : 1)} GB`;

/** A download the server's answer rules out (too big, not a GGUF file): failed, and its partial file removed. */
class Refused extends Error {}

const isLoopback = (host: string) => host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);

/** Checks a download URL and names its file: https (http only on loopback), a path ending in `.gguf`. */
export function parseDownloadUrl(raw: string): { url: string; file: string } {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw ValidationError.field('url', say.must('url', 'be a valid URL'));
  }
  if (u.username || u.password) throw ValidationError.field('url', say.must('url', 'not hold credentials'));
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopback(u.hostname))) {
    throw ValidationError.field('url', say.must('url', 'be an https URL (http is allowed only on this computer)'));
  }
  // A Hugging Face page link (`/blob/`) names the same file as its download link (`/resolve/`).
  if (u.hostname === 'huggingface.co' || u.hostname.endsWith('.huggingface.co')) u.pathname = u.pathname.replace(/^(\/[^/]+\/[^/]+)\/blob\//, '$1/resolve/');
  let last: string;
  try {
    last = decodeURIComponent(u.pathname.split('/').pop() ?? '');
  } catch {
    throw ValidationError.field('url', say.field('url', 'has a malformed % escape in its file name'));
  }
  if (!/\.gguf$/i.test(last)) throw ValidationError.field('url', say.must('url', 'name a .gguf file'));
  const file = last.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  if (file.length < 6 || file.length > 200) throw ValidationError.field('url', 'The file name in the url is too short or too long.');
  return { url: u.toString(), file };
}

/** A 64-hex SHA-256 from a hub's headers (Hugging Face sends the LFS file's in `x-linked-etag`). */
function hubSha256(headers: Headers): string | null {
  for (const name of ['x-linked-etag', 'x-sha256', 'etag']) {
    const v = headers.get(name)?.replace(/^W\//, '').replace(/"/g, '').trim().toLowerCase();
    if (v && /^[0-9a-f]{64}$/.test(v)) return v;
  }
  return null;
}

const MAX_REDIRECTS = 5;

/**
 * Follows redirects by hand: Hugging Face answers `/resolve/` with a redirect to its CDN and puts
 * the file's SHA-256 on that redirect (`x-linked-etag`), not on the CDN's answer. Every hop must
 * be https (or http on loopback), as the first URL.
 */
async function fetchFollowing(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<{ res: Response; sha: string | null }> {
  let sha: string | null = null;
  let at = url;
  for (let hop = 0; ; hop++) {
    const res = await fetch(at, { headers, signal, redirect: 'manual' });
    sha ??= hubSha256(res.headers);
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return { res, sha };
    await res.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw new Error(`More than ${MAX_REDIRECTS} redirects.`);
    const next = new URL(location, at);
    if (next.protocol !== 'https:' && !(next.protocol === 'http:' && isLoopback(next.hostname))) throw new Error(`The server redirected to ${next.origin}, which is not https.`);
    at = next.toString();
  }
}

/** The first `n` bytes of a file. */
function readHead(file: string, n: number): Buffer {
  const buf = Buffer.alloc(n);
  const fd = fs.openSync(file, 'r');
  try {
    return buf.subarray(0, fs.readSync(fd, buf, 0, n, 0));
  } finally {
    fs.closeSync(fd);
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

class Stopped extends Error {}

/**
 * GGUF downloads into the models folder: durable rows, bytes appended to `.<file>.part`, resumed
 * with an HTTP Range request after a pause or a restart, size and SHA-256 checked, then renamed
 * into place (so a half file is never listed as a model).
 */
export class DownloadsService {
  private readonly store: DownloadsStore;
  private readonly running = new Map<number, { abort: AbortController; bytes: number; total: number | null; done: Promise<void> }>();
  private closed = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly target: DownloadTarget,
    lifecycle: Lifecycle,
  ) {
    this.store = new DownloadsStore(ctx.db);
    lifecycle.onShutdown(() => this.stop());
    // Downloads a previous run left going carry on (only one process owns background work).
    lifecycle.onPrimary(() => this.pump());
  }

  private now(): number {
    return Date.now();
  }

  /** The size cap: AGENT_DESK_MAX_DOWNLOAD_MB (fractions allowed), else DEFAULT_MAX_BYTES. */
  private maxBytes(): number {
    const mb = Number(this.ctx.config.env.AGENT_DESK_MAX_DOWNLOAD_MB);
    return Number.isFinite(mb) && mb > 0 ? Math.floor(mb * 1024 * 1024) : DEFAULT_MAX_BYTES;
  }

  private partPath(file: string): string {
    return path.join(this.target.folder(), `.${file}.part`);
  }

  private view(r: DownloadRow): ModelDownload {
    const live = this.running.get(r.id);
    return { id: r.id, url: r.url, file: r.file, bytes: live ? live.bytes : r.bytes, total: live?.total ?? r.total, status: r.status, error: r.error };
  }

  private row(rawId: string | number): DownloadRow {
    const id = parseId(rawId);
    const r = id === null ? null : this.store.get(id);
    if (!r) throw new NotFoundError('Download not found');
    return r;
  }

  list(): ModelDownload[] {
    return this.store.list().map((r) => this.view(r));
  }

  get(id: string | number): ModelDownload {
    return this.view(this.row(id));
  }

  create(body: ModelDownloadCreate): ModelDownload {
    const { url, file } = parseDownloadUrl(body.url);
    const prev = this.store.byFile(file);
    if (prev && prev.status !== 'failed') throw new ConflictError(`${file} is already ${prev.status === 'completed' ? 'downloaded' : 'being downloaded'} (download ${prev.id}).`);
    if (fs.existsSync(path.join(this.target.folder(), file))) throw new ConflictError(`${file} is already in the models folder.`);
    if (prev) this.store.remove(prev.id);
    // A file from the curated catalog is checked against the SHA-256 pinned there when the caller gives none.
    const r = this.store.insert(url, file, body.sha256?.toLowerCase() ?? pinnedSha256(url), this.now());
    this.pump();
    return this.view(r);
  }

  async pause(id: string | number): Promise<ModelDownload> {
    const r = this.row(id);
    if (r.status === 'completed' || r.status === 'failed' || r.status === 'verifying') throw new ConflictError(`A ${r.status} download cannot be paused.`);
    if (r.status !== 'paused') {
      this.store.setStatus(r.id, 'paused', null, this.now());
      await this.halt(r.id);
    }
    return this.get(r.id);
  }

  resume(id: string | number): ModelDownload {
    const r = this.row(id);
    if (r.status === 'completed') throw new ConflictError('This download is complete.');
    if (r.status === 'paused' || r.status === 'failed') {
      this.store.setStatus(r.id, 'queued', null, this.now());
      this.pump();
    }
    return this.get(r.id);
  }

  /** Stops a download and removes its partial file, or, for a completed one, the downloaded model. */
  async remove(id: string | number): Promise<void> {
    const r = this.row(id);
    this.store.remove(r.id);
    await this.halt(r.id);
    fs.rmSync(this.partPath(r.file), { force: true });
    if (r.status === 'completed') {
      fs.rmSync(path.join(this.target.folder(), r.file), { force: true });
      this.target.changed();
    }
  }

  private async halt(id: number): Promise<void> {
    const live = this.running.get(id);
    if (!live) return;
    live.abort.abort(new Stopped());
    await live.done;
  }

  /** Shutdown: stop every transfer, leaving its row as it was so the next start resumes it. */
  async stop(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.running.keys()].map((id) => this.halt(id)));
  }

  /** Starts queued downloads up to the concurrency limit. */
  private pump(): void {
    if (this.closed || !this.store.open) return;
    for (const r of this.store.unfinished()) {
      if (this.running.size >= MAX_RUNNING) return;
      if (this.running.has(r.id)) continue;
      const abort = new AbortController();
      const slot = { abort, bytes: r.bytes, total: r.total, done: Promise.resolve() };
      this.running.set(r.id, slot);
      slot.done = this.run(r, slot).finally(() => {
        this.running.delete(r.id);
        this.pump();
      });
    }
  }

  private async run(r: DownloadRow, slot: { abort: AbortController; bytes: number; total: number | null }): Promise<void> {
    const part = this.partPath(r.file);
    try {
      fs.mkdirSync(path.dirname(part), { recursive: true });
      this.store.setStatus(r.id, 'downloading', null, this.now());
      await this.transfer(r, part, slot);
      this.store.setStatus(r.id, 'verifying', null, this.now());
      await this.verify(r.id, part, slot.total);
      const final = path.join(this.target.folder(), r.file);
      fsyncFile(part);
      fs.renameSync(part, final);
      this.store.setProgress(r.id, slot.bytes, slot.total, this.now());
      this.store.setStatus(r.id, 'completed', null, this.now());
      this.target.changed();
      this.ctx.log.info({ file: r.file, bytes: slot.bytes }, 'model download completed');
    } catch (err) {
      if (!this.store.open) return;
      const stopped = err instanceof Stopped || slot.abort.signal.reason instanceof Stopped;
      if (stopped) {
        // Paused, deleted or shut down: the partial file stays for a Range resume.
        if (this.store.get(r.id)) this.store.setProgress(r.id, slot.bytes, slot.total, this.now());
        return;
      }
      if (err instanceof Refused) fs.rmSync(part, { force: true });
      const msg = (err as Error).name === 'TimeoutError' ? `The server sent nothing for ${IDLE_MS / 1000} s.` : (err as Error).message;
      this.ctx.log.warn({ file: r.file, err: msg }, 'model download failed');
      if (!this.store.get(r.id)) return;
      this.store.setProgress(r.id, slot.bytes, slot.total, this.now());
      this.store.setStatus(r.id, 'failed', msg, this.now());
    }
  }

  /** Appends the rest of the file to `part`, asking for it from where the part ends. */
  private async transfer(r: DownloadRow, part: string, slot: { abort: AbortController; bytes: number; total: number | null }): Promise<void> {
    let have = fs.existsSync(part) ? fs.statSync(part).size : 0;
    const headers: Record<string, string> = { 'user-agent': 'AgentDesk' };
    if (have > 0) headers.range = `bytes=${have}-`;
    const { res, sha: hubSha } = await fetchFollowing(r.url, headers, slot.abort.signal);
    if (res.status === 416 && have > 0 && r.total === have) {
      await res.body?.cancel();
      slot.bytes = have;
      return;
    }
    if (res.status !== 200 && res.status !== 206) {
      await res.body?.cancel();
      throw new Error(`The server answered ${res.status} ${res.statusText || ''}`.trim() + '.');
    }
    if (res.status === 200 && have > 0) {
      // The server ignored the Range: start over.
      fs.truncateSync(part, 0);
      have = 0;
    }
    const len = Number(res.headers.get('content-length'));
    const range = /\/(\d+)\s*$/.exec(res.headers.get('content-range') ?? '');
    const total = range ? Number(range[1]) : Number.isFinite(len) && res.headers.has('content-length') ? have + len : null;
    if (r.total !== null && total !== null && r.total !== total) throw new Error(`The file on the server changed size (${r.total} bytes before, ${total} now); delete this download and start again.`);
    const cap = this.maxBytes();
    if (total !== null && total > cap) {
      await res.body?.cancel();
      throw new Refused(`The file is ${gb(total)}, more than the download limit of ${gb(cap)} (AGENT_DESK_MAX_DOWNLOAD_MB).`);
    }
    if (hubSha && !r.sha256) this.store.setExpected(r.id, hubSha, this.now());
    slot.total = total;
    slot.bytes = have;
    this.store.setProgress(r.id, have, total, this.now());
    if (!res.body) throw new Error('The server sent no body.');

    const out = fs.openSync(part, 'a');
    let persisted = have;
    // The first bytes say whether this is a GGUF file at all: a web page or an error text fails at once.
    let head = have > 0 ? readHead(part, Math.min(have, GGUF_MAGIC.length)) : Buffer.alloc(0);
    const reader = res.body.getReader();
    const refuse = async (message: string): Promise<never> => {
      await reader.cancel().catch(() => {});
      throw new Refused(message);
    };
    try {
      for (;;) {
        const idle = setTimeout(() => slot.abort.abort(Object.assign(new Error('idle'), { name: 'TimeoutError' })), IDLE_MS);
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (err) {
          throw slot.abort.signal.aborted ? (slot.abort.signal.reason ?? err) : err;
        } finally {
          clearTimeout(idle);
        }
        if (chunk.done) break;
        if (head.length < GGUF_MAGIC.length) {
          head = Buffer.concat([head, chunk.value.subarray(0, GGUF_MAGIC.length - head.length)]);
          if (head.length === GGUF_MAGIC.length && head.toString('latin1') !== GGUF_MAGIC) {
            await refuse(`The server did not send a GGUF model: the file starts with ${JSON.stringify(head.toString('latin1'))}, not "GGUF"${/^\s*</.test(head.toString('latin1')) ? ' (it looks like a web page)' : ''}. Check that the link downloads the .gguf file itself.`);
          }
        }
        const after = slot.bytes + chunk.value.byteLength;
        if (after > cap) await refuse(`The server sent more than the download limit of ${gb(cap)} (AGENT_DESK_MAX_DOWNLOAD_MB); the download was stopped.`);
        if (total !== null && after > total) await refuse(`The server sent more than the ${total} bytes it announced; the download was stopped.`);
        fs.writeSync(out, chunk.value);
        slot.bytes = after;
        if (slot.bytes - persisted >= PERSIST_EVERY) {
          persisted = slot.bytes;
          this.store.setProgress(r.id, slot.bytes, total, this.now());
        }
      }
    } finally {
      fs.closeSync(out);
    }
    if (total !== null && slot.bytes !== total) throw new Error(`The download ended early: ${slot.bytes} of ${total} bytes.`);
  }

  private async verify(id: number, part: string, total: number | null): Promise<void> {
    const size = fs.statSync(part).size;
    if (total !== null && size !== total) {
      fs.rmSync(part, { force: true });
      throw new Error(`Size mismatch: expected ${total} bytes, got ${size}. The partial file was removed; resume to download it again.`);
    }
    const expected = this.store.get(id)?.sha256 ?? null;
    if (readHead(part, GGUF_MAGIC.length).toString('latin1') !== GGUF_MAGIC) {
      fs.rmSync(part, { force: true });
      throw new Error('The downloaded file is not a GGUF model (it does not start with "GGUF").');
    }
    if (expected) {
      const got = await sha256Of(part);
      if (got !== expected) {
        fs.rmSync(part, { force: true });
        throw new Error(`Checksum mismatch: expected SHA-256 ${expected}, got ${got}. The file was removed.`);
      }
    }
  }
}
