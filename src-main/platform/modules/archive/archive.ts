import fs from 'node:fs';
import path from 'node:path';
import type { ServiceContext } from '../../kernel/context.js';
import { ValidationError } from '../../kernel/errors.js';
import type { ExportOptions, ExportScope } from './service.js';
import { exportStream } from './service.js';
import { importArchiveInWorker, type ImportResult } from './import.js';
import { archiveUploadSpec } from './upload.js';
import { BadArchiveError } from './tar.js';

/** A workspace as one archive: export streams it, import takes an uploaded one, all or nothing. */
export class ArchiveService {
  constructor(private readonly ctx: ServiceContext) {}

  exportStream(scope: ExportScope, opts: ExportOptions = {}): ReadableStream<Uint8Array> {
    return exportStream(this.ctx.db, this.ctx.config.dataDir, scope, opts);
  }

  /** What an import upload accepts (the multipart receiver of the HTTP layer streams it to a temp file). */
  uploadSpec() {
    return archiveUploadSpec(path.join(this.ctx.config.dataDir, 'files', 'tmp'), this.ctx.config.maxUploadBytes);
  }

  /** Imports a received archive file (`name`: the file name it was sent with), and always removes it. */
  async importFile(tmp: string, scope: ExportScope, name?: string): Promise<ImportResult> {
    try {
      return await importArchiveInWorker(this.ctx.db, this.ctx.config.dataDir, scope, tmp, { name });
    } catch (err) {
      if (err instanceof BadArchiveError) throw ValidationError.field('archive', err.message);
      throw err;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
}
