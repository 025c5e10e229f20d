import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ValidationError } from '../../kernel/errors.js';
import { receiveFilePart, type UploadRequest } from '../../transports/http/multipart.js';

const archiveRequired = () => ValidationError.field('archive', 'The archive field is required (a multipart upload of an export .tar).');

/**
 * Streams the `archive` (or `file`) part of a multipart body to a temp file in `tmpDir` with the
 * one multipart receiver: at most `maxBytes` (inclusive; 413). The caller removes the file; on
 * failure it is removed here.
 */
export async function receiveArchive(req: UploadRequest, tmpDir: string, maxBytes: number): Promise<string> {
  fs.mkdirSync(tmpDir, { recursive: true });
  const got = await receiveFilePart(req, {
    fieldNames: ['archive', 'file'],
    maxBytes,
    label: 'archive',
    tmpPath: () => path.join(tmpDir, `${crypto.randomUUID()}.archive.part`),
    missing: archiveRequired,
    maxFields: 10,
    maxFieldBytes: 1024,
  });
  return got.tmpPath;
}
