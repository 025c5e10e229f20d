import fs from 'node:fs';
import path from 'node:path';
import type { ServiceContext } from '../../kernel/context.js';
import { ValidationError } from '../../kernel/errors.js';
import type { ExportScope } from './service.js';
import { exportStream } from './service.js';
import { importArchiveInWorker, type ImportResult } from './import.js';
import { receiveArchive } from './upload.js';
import type { UploadRequest } from '../../transports/http/multipart.js';
import { BadArchiveError } from './tar.js';

/** A workspace as one archive: export streams it, import takes an uploaded one, all or nothing. */
export class ArchiveService {
  constructor(private readonly ctx: ServiceContext) {}

  exportStream(scope: ExportScope): ReadableStream<Uint8Array> {
    return exportStream(this.ctx.db, this.ctx.config.dataDir, scope);
  }

  /** Receives the multipart `archive` to a temp file, imports it, and always removes the temp file. */
  async importUpload(req: UploadRequest, scope: ExportScope): Promise<ImportResult> {
    const tmp = await receiveArchive(req, path.join(this.ctx.config.dataDir, 'files', 'tmp'), this.ctx.config.maxUploadBytes);
    try {
      return await importArchiveInWorker(this.ctx.db, this.ctx.config.dataDir, scope, tmp);
    } catch (err) {
      if (err instanceof BadArchiveError) throw ValidationError.field('archive', err.message);
      throw err;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
}
