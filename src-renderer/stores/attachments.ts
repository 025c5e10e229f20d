import { create } from 'zustand';
import { forget, newAttachment, sendable, upload, type Attachment } from './chat-attachments';

/** The files waiting to go with the chat's next message (chat-attachments.ts uploads and reads each). */
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

export type { Attachment };
