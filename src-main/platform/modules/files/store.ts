import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../kernel/log.js';

/**
 * Where uploaded bytes live: `<dataDir>/files/<id>`, written first to `<dataDir>/files/tmp/`,
 * fsynced, then renamed. The user's filename never becomes part of a path.
 */
export class FileStore {
  readonly dir: string;
  readonly tmpDir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'files');
    this.tmpDir = path.join(this.dir, 'tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  pathOf(id: number): string {
    return path.join(this.dir, String(id));
  }

  newTempPath(): string {
    return path.join(this.tmpDir, `${crypto.randomUUID()}.part`);
  }

  /** Writes a whole buffer to a fsynced temp file (generated files, not uploads). */
  writeTemp(bytes: Buffer): { tmpPath: string; sha256: string } {
    const tmpPath = this.newTempPath();
    const fd = fs.openSync(tmpPath, 'wx', 0o600);
    try {
      fs.writeSync(fd, bytes);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    return { tmpPath, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
  }

  /**
   * Moves a finished temp file to its id's name. The rename is made durable by `syncDir()`, which
   * the caller awaits after its transaction: a directory fsync inside it held the write lock and
   * the event loop for as long as the disk took.
   */
  commit(tmpPath: string, id: number): void {
    fs.renameSync(tmpPath, this.pathOf(id));
  }

  private syncing: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  /**
   * Syncs the files directory off the event loop, so renames made before the call survive a power
   * cut. Concurrent callers share syncs: one running, at most one queued behind it (a rename made
   * during a running sync may not be covered by it).
   */
  syncDir(): Promise<void> {
    if (!this.syncing) {
      this.syncing = this.syncDirOnce().finally(() => (this.syncing = null));
      return this.syncing;
    }
    this.queued ??= this.syncing.then(() => {
      this.queued = null;
      return this.syncDir();
    });
    return this.queued;
  }

  discard(tmpPath: string): void {
    fs.rm(tmpPath, { force: true }, () => {});
  }

  remove(id: number): void {
    fs.rmSync(this.pathOf(id), { force: true });
  }

  exists(id: number): boolean {
    return fs.existsSync(this.pathOf(id));
  }

  private async syncDirOnce(): Promise<void> {
    try {
      const fh = await fs.promises.open(this.dir, 'r');
      try {
        await fh.sync();
      } finally {
        await fh.close();
      }
    } catch {
      // Some platforms (Windows) cannot fsync a directory; the rename is still atomic there.
    }
  }

  /**
   * Start-up reconciliation: temp files are uploads that never finished (removed); stored bytes
   * whose id has no row are reported, not deleted (the database is the truth, but bytes are
   * the user's, so a person decides).
   */
  reconcile(hasRow: (id: number) => boolean, log: Logger): { removedTemp: number; orphans: number[] } {
    let removedTemp = 0;
    for (const name of fs.readdirSync(this.tmpDir)) {
      fs.rmSync(path.join(this.tmpDir, name), { force: true, recursive: true });
      removedTemp++;
    }
    const orphans: number[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      if (name === 'tmp') continue;
      const id = /^\d+$/.test(name) ? Number(name) : NaN;
      if (!Number.isSafeInteger(id) || !hasRow(id)) orphans.push(Number.isSafeInteger(id) ? id : -1);
    }
    if (removedTemp) log.info({ removedTemp }, 'removed unfinished uploads');
    if (orphans.length) log.warn({ dir: this.dir, orphans: orphans.slice(0, 50), count: orphans.length }, 'stored file bytes without a database row');
    return { removedTemp, orphans };
  }
}
