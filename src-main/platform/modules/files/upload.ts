import { ValidationError } from '../../kernel/errors.js';
import { receiveFilePart, tooLargeError, type UploadRequest } from '../../transports/http/multipart.js';
import type { FileStore } from './store.js';
import { checkExtension, cleanFilename, type IncomingFile } from './service.js';

export interface ReceivedUpload {
  file: IncomingFile;
  fields: Record<string, string>;
}

export const tooLarge = (max: number) => tooLargeError('file', max);

/**
 * Upload File's body: one `file` part with an accepted extension (422), at most `maxBytes`
 * (inclusive; 413), streamed into a fsynced temp file by the one multipart receiver.
 */
export async function receiveUpload(req: UploadRequest, store: FileStore, maxBytes: number): Promise<ReceivedUpload> {
  const { fields, ...file } = await receiveFilePart(req, {
    fieldNames: ['file'],
    maxBytes,
    label: 'file',
    tmpPath: () => store.newTempPath(),
    missing: () => ValidationError.field('file', 'The file field is required.'),
    cleanName: cleanFilename,
    checkName: (name) => void checkExtension(name),
    flush: true,
  });
  return { file, fields };
}
