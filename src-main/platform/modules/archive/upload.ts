import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ValidationError } from '../../kernel/errors.js';
import { say } from '../../contract/messages.js';

/**
 * What an archive import accepts, for the one multipart receiver (transports/http/multipart.ts):
 * the `archive` (or `file`) part, at most `maxBytes` (inclusive; 413), into a temp file in
 * `tmpDir` that the caller removes.
 */
export function archiveUploadSpec(tmpDir: string, maxBytes: number) {
  return {
    fieldNames: ['archive', 'file'],
    maxBytes,
    label: 'archive',
    tmpPath: () => {
      fs.mkdirSync(tmpDir, { recursive: true });
      return path.join(tmpDir, `${crypto.randomUUID()}.archive.part`);
    },
    missing: () => ValidationError.field('archive', say.required('archive', '(a multipart upload of an export .tar)')),
    maxFields: 10,
    maxFieldBytes: 1024,
  };
}
