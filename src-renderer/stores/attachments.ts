import { create } from 'zustand';
import { api, messageOf, ops } from '../api';
import { t } from '../i18n';
import { fileOf, forget, isRetriable, newUpload, sendFile, type Upload } from './uploads';

/**
 * The chat's attachments: the uploads (uploads.ts) waiting to go with the next message. Each is
 * uploaded (bytes sent, as the browser reports them; the desktop bridge hands the bytes over in
 * one message, so its progress is unknown until done), then read by the platform (text
 * extracted, images OCR'd), which can take a while for an image: an image being read never holds
 * the message back.
 */
export interface Attachment extends Upload<'processing' | 'ready'> {
  image: boolean;
  /** when reading began (ISO, this page's clock), for the time it has taken */
  readingSince: string | null;
}

const POLL_MS = 500;
const IMAGE_EXT = /\.(png|jpe?g|gif|webp|bmp|tiff?)$/i;

/** Read: completed, or in progress only for its vectors (ext `vectors: "pending"`). */
const textRead = (f: { status: string; vectors?: string }) => f.status === 'completed' || (f.status === 'in_progress' && f.vectors === 'pending');

export const isImage = (f: File) => f.type.startsWith('image/') || IMAGE_EXT.test(f.name);

function newAttachment(key: string, f: File): Attachment {
  return { ...newUpload(key, f, f.name || t('chat.limits.pastedFile')), image: isImage(f), readingSince: null };
}

/**
 * Uploads one attachment's file, then has the platform read it and follows the reading until it
 * ends (or the attachment is removed: `present` false). The upload answers as soon as the bytes
 * are stored (the file's id is known then); the reading runs on its own request, so a slow OCR
 * never holds the upload. Failures land in the attachment as a sentence, never thrown.
 */
async function upload(key: string, patch: (p: Partial<Attachment>) => void, present: () => boolean): Promise<void> {
  const f = fileOf(key);
  if (!f) return;
  patch({ phase: 'uploading', sent: 0, error: undefined, retriable: undefined, fileId: null, readingSince: null });
  let file;
  let readingSince: string | null = null;
  const reading = () => (readingSince ??= new Date().toISOString());
  try {
    file = await sendFile(f, (sent, total) => {
      if (!present()) return;
      // Every byte sent: the platform stores it, then reads it.
      if (sent >= total && total > 0) patch({ sent: f.size, phase: 'processing', readingSince: reading() });
      else patch({ sent: Math.min(sent, f.size) });
    });
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

interface AttachmentsState {
  attachments: Attachment[];
  attach(files: File[]): Promise<void>;
  /** Sends a failed attachment's file again. */
  retry(key: string): Promise<void>;
  detach(key: string): void;
  /** Takes off the attachments that can go with a message now, and hands them over. */
  take(): Attachment[];
}

let seq = 0;

export const useAttachments = create<AttachmentsState>((set, get) => {
  /** Uploads attachment `k` and follows its reading; it updates in place while it is still attached. */
  const follow = (k: string) =>
    upload(
      k,
      (p) => set({ attachments: get().attachments.map((a) => (a.key === k ? { ...a, ...p } : a)) }),
      () => get().attachments.some((a) => a.key === k),
    );

  return {
    attachments: [],

    async attach(files) {
      const added = files.map((f) => newAttachment(`a${Date.now().toString(36)}${seq++}`, f));
      set({ attachments: [...get().attachments, ...added] });
      await Promise.all(added.map((a) => follow(a.key)));
    },

    async retry(k) {
      if (!get().attachments.some((a) => a.key === k)) return;
      await follow(k);
    },

    detach(k) {
      forget(k);
      set({ attachments: get().attachments.filter((a) => a.key !== k) });
    },

    take() {
      // Uploaded and read, or an image still being read (its text comes once read).
      const ready = get().attachments.filter(sendable);
      set({ attachments: get().attachments.filter((a) => !ready.includes(a)) });
      for (const a of ready) forget(a.key);
      return ready;
    },
  };
});

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
