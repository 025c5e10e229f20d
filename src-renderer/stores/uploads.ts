import { api, ApiError, ops, WORDED_HERE, type FileObject } from '../api';
import { formatBytes } from '../components/format';
import { t } from '../i18n';

/**
 * An upload: a file the person hands the app, sent to the platform (POST /api/files) with its
 * bytes counted as they go. The one concept behind the chat's attachments (attachments.ts: the
 * files that go with the next message) and the Files screen's uploads (files.ts); each adds the
 * phases it shows after the bytes are stored.
 */
export interface Upload<Phase extends string = never> {
  key: string;
  name: string;
  /** bytes */
  size: number;
  /** bytes sent so far */
  sent: number;
  /** the platform's id once the bytes are stored */
  fileId: number | null;
  phase: 'uploading' | 'failed' | Phase;
  /** the transport does not report bytes as they go (the desktop bridge hands them over in one message) */
  indeterminate: boolean;
  /** why it failed, in a sentence */
  error?: string;
  /** the upload broke on the way (a network fault, the platform restarting): Retry may work */
  retriable?: boolean;
}

/** The File behind each upload still shown, for Retry (not state: a store holds only what it shows). */
const sources = new Map<string, File>();

/** A new upload of `f` under `key`, its file kept for sending and Retry. */
export function newUpload(key: string, f: File, name = f.name): Upload {
  sources.set(key, f);
  return { key, name, size: f.size, sent: 0, fileId: null, phase: 'uploading', indeterminate: api.transport === 'bridge' };
}

export const fileOf = (key: string): File | undefined => sources.get(key);
export const forget = (key: string): void => void sources.delete(key);

/** The platform's upload limit once known (GET /api/app): a larger file is refused before any byte is sent. */
let maxUploadBytes: number | null = null;
export const uploadLimit = {
  get: () => maxUploadBytes,
  set: (bytes: number) => void (maxUploadBytes = bytes),
};

/** A refusal (the file's type, its size: a 4xx) fails again on Retry; a broken connection or a 5xx may not. */
export const isRetriable = (err: unknown): boolean => !(err instanceof ApiError && err.status >= 400 && err.status < 500);

/**
 * Sends one file: answered as soon as the bytes are stored (the reading runs on its own request,
 * so a slow OCR never holds an upload). Over the known limit it is refused here, as the platform
 * would (413), before a byte goes.
 */
export async function sendFile(f: File, onProgress?: (sent: number, total: number) => void): Promise<FileObject> {
  // The chat may send before the Files screen ever loaded the limit: ask once (a failure leaves it to the platform's 413).
  if (maxUploadBytes === null) maxUploadBytes = await api.call(ops.getApp, {}).then((a) => a.max_upload_bytes, () => null);
  if (maxUploadBytes !== null && f.size > maxUploadBytes) throw new ApiError(413, t('files.tooLarge', { name: f.name, size: formatBytes(f.size), limit: formatBytes(maxUploadBytes) }), undefined, WORDED_HERE);
  return api.upload(ops.uploadFile, { form: { file: f } }, { onProgress });
}
