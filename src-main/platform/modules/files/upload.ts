import { ValidationError } from '../../kernel/errors.js';
import type { FileStore } from './store.js';
import { checkExtension, cleanFilename, type IncomingFile } from './service.js';
import { say } from '../../contract/messages.js';

/** An Upload File body as the HTTP layer's multipart receiver hands it over. */
export interface ReceivedUpload extends IncomingFile {
  fields: Record<string, string>;
}

/**
 * What Upload File accepts, for the one multipart receiver (transports/http/multipart.ts): one
 * `file` part with an accepted extension (422), at most `maxBytes` (inclusive; 413), into a
 * fsynced temp file of the store.
 */
export function fileUploadSpec(store: FileStore, maxBytes: number) {
  return {
    fieldNames: ['file'],
    maxBytes,
    label: 'file',
    tmpPath: () => store.newTempPath(),
    missing: () => ValidationError.field('file', say.required('file')),
    cleanName: cleanFilename,
    checkName: (name: string) => void checkExtension(name),
    flush: true,
  };
}
