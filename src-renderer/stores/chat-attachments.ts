import { api, ApiError, messageOf, ops } from '../api';
import { t } from '../i18n';

/**
 * The files waiting to go with the next chat message. Each is uploaded (bytes sent, as the
 * browser reports them; the desktop bridge hands the bytes over in one message, so its progress
 * is unknown until done), then read by the platform (text extracted, images OCR'd), which can
 * take a while for an image: an image being read never holds the message back.
 */
export interface Attachment {
  key: string;
  name: string;
  /** bytes */
  size: number;
  image: boolean;
  fileId: number | null;
  phase: 'uploading' | 'processing' | 'ready' | 'failed';
  /** bytes sent so far (uploading) */
  sent: number;
  /** the transport does not report bytes as they go (the desktop bridge) */
  indeterminate: boolean;
  /** when reading began (ISO, this page's clock), for the time it has taken */
  readingSince: string | null;
  /** why it failed, in a sentence */
  error?: string;
  /** the upload broke on the way (a network fault, the platform restarting): Retry may work */
  retriable?: boolean;
}

export type AttachmentPatch = (p: Partial<Attachment>) => void;

const POLL_MS = 500;
const IMAGE_EXT = /\.(png|jpe?g|gif|webp|bmp|tiff?)$/i;

/** Read: completed, or in progress only for its vectors (ext `vectors: "pending"`). */
const textRead = (f: { status: string; vectors?: string }) => f.status === 'completed' || (f.status === 'in_progress' && f.vectors === 'pending');

/** The File behind each attachment, for Retry (not state: the store holds only what it shows). */
const files = new Map<string, File>();

/** A refusal (the file's type, its size: a 4xx) fails again on Retry; a broken connection or a 5xx may not. */
export const isRetriable = (err: unknown) => !(err instanceof ApiError && err.status >= 400 && err.status < 500);

export const isImage = (f: File) => f.type.startsWith('image/') || IMAGE_EXT.test(f.name);

export function newAttachment(key: string, f: File): Attachment {
  files.set(key, f);
  return { key, name: f.name || t('chat.limits.pastedFile'), size: f.size, image: isImage(f), fileId: null, phase: 'uploading', sent: 0, indeterminate: api.transport === 'bridge', readingSince: null };
}

export const fileOf = (key: string) => files.get(key);
export const forget = (key: string) => void files.delete(key);

/**
 * Uploads one attachment's file, then has the platform read it and follows the reading until it
 * ends (or the attachment is removed: `present` false). The upload answers as soon as the bytes
 * are stored (the file's id is known then); the reading runs on its own request, so a slow OCR
 * never holds the upload. Failures land in the attachment as a sentence, never thrown.
 */
export async function upload(key: string, patch: AttachmentPatch, present: () => boolean): Promise<void> {
  const f = files.get(key);
  if (!f) return;
  patch({ phase: 'uploading', sent: 0, error: undefined, retriable: undefined, fileId: null, readingSince: null });
  let file;
  let readingSince: string | null = null;
  const reading = () => (readingSince ??= new Date().toISOString());
  try {
    file = await api.upload(
      ops.uploadFile,
      { form: { file: f } },
      {
        onProgress: (sent, total) => {
          if (!present()) return;
          // Every byte sent: the platform stores it, then reads it.
          if (sent >= total && total > 0) patch({ sent: f.size, phase: 'processing', readingSince: reading() });
          else patch({ sent: Math.min(sent, f.size) });
        },
      },
    );
  } catch (err) {
    if (present()) patch({ phase: 'failed', error: messageOf(err), retriable: isRetriable(err) });
    return;
  }
  if (!present()) return;
  patch({ fileId: file.id, sent: f.size, ...(textRead(file) ? { phase: 'ready' } : { phase: 'processing', readingSince: reading() }) });
  let status = file.status;
  let error = file.error;
  try {
    if (!textRead(file) && status !== 'failed') {
      // The platform's wait answers only once the passages have their vectors too (a long text
      // takes minutes with the built-in embedder), so it runs on its own and the polls below say
      // when the text is read: a message can use it from then on (full text finds its passages).
      let ended: unknown = null;
      void api.call(ops.processFile, { params: { fileId: file.id } }).catch((err: unknown) => void (ended = err));
      let now = file;
      while (!textRead(now) && (now.status === 'waiting' || now.status === 'in_progress') && present()) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        if (ended) throw ended;
        now = await api.call(ops.getFile, { params: { fileId: file.id } });
      }
      status = now.status;
      error = now.error;
    }
  } catch (err) {
    if (present()) patch({ phase: 'failed', error: messageOf(err) });
    return;
  }
  if (!present()) return;
  if (status === 'failed') patch({ phase: 'failed', error: error ?? t('chat.limits.unreadable') });
  else patch({ phase: 'ready' });
}

/**
 * Whether a message can go now, given its attachments: a failed one must be removed (or retried)
 * first; one still uploading is waited for (the platform needs its id); a document being read is
 * waited for (its text is what the message is about); an image being read is not (its text
 * reaches the model once read). Null: it can go.
 */
export function attachmentBlock(attachments: Attachment[]): string | null {
  const failed = attachments.find((a) => a.phase === 'failed');
  if (failed) return t('chat.limits.notAttached', { name: failed.name, why: failed.error ?? t('chat.limits.itFailed') });
  // No id yet (bytes still going, or the platform storing them): the message cannot name it.
  const uploading = attachments.find((a) => a.fileId === null);
  if (uploading) return t('chat.limits.waitUpload', { name: uploading.name });
  const reading = attachments.find((a) => a.phase === 'processing' && !a.image);
  if (reading) return t('chat.limits.waitRead', { name: reading.name });
  return null;
}

/** What to say about images still being read when the message can go (null: none). */
export function imageNote(attachments: Attachment[]): string | null {
  const reading = attachments.filter((a) => a.phase === 'processing' && a.image);
  if (!reading.length) return null;
  return reading.length === 1 ? t('chat.limits.imageOne', { name: reading[0].name }) : t('chat.limits.imageMany', { count: reading.length });
}

/** The attachments that go with a message: uploaded, and read (or an image being read). */
export const sendable = (a: Attachment) => a.fileId !== null && (a.phase === 'ready' || (a.phase === 'processing' && a.image));
