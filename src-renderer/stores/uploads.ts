import { create } from 'zustand';
import { api, messageOf, type FileObject } from '../api';
import { noteAuth } from './note-auth';

export interface Upload {
  key: string;
  name: string;
  size: number;
  sent: number;
  fileId: number | null;
  phase: 'uploading' | 'uploaded' | 'failed';
  error?: string;
}

interface UploadsState {
  uploads: Upload[];
  files: FileObject[];
  filesError: unknown;
  loaded: boolean;
  loadFiles(): Promise<void>;
  upload(files: File[]): Promise<void>;
  clearFinished(): void;
  removeFile(id: number): Promise<void>;
}

const TERMINAL = new Set(['completed', 'failed']);
const POLL_MS = 600;
let seq = 0;
let timer: ReturnType<typeof setTimeout> | null = null;

export const useUploads = create<UploadsState>((set, get) => {
  /** Polls the file list while any file is still being processed (there is no push channel for it). */
  const schedule = () => {
    if (timer) return;
    const busy = get().files.some((f) => !TERMINAL.has(f.status)) || get().uploads.some((u) => u.phase === 'uploading');
    if (!busy) return;
    timer = setTimeout(async () => {
      timer = null;
      await get().loadFiles();
    }, POLL_MS);
  };

  return {
    uploads: [],
    files: [],
    filesError: null,
    loaded: false,

    async loadFiles() {
      try {
        const res = await api.files.list({ per_page: 100 });
        set({ files: res.data, filesError: null, loaded: true });
      } catch (err) {
        noteAuth(err);
        set({ filesError: err, loaded: true });
      }
      schedule();
    },

    async upload(files) {
      const added: Upload[] = files.map((f) => ({ key: `u${seq++}`, name: f.name, size: f.size, sent: 0, fileId: null, phase: 'uploading' }));
      set({ uploads: [...added, ...get().uploads] });
      const patch = (k: string, p: Partial<Upload>) => set({ uploads: get().uploads.map((u) => (u.key === k ? { ...u, ...p } : u)) });
      await Promise.all(
        files.map(async (f, i) => {
          const k = added[i].key;
          try {
            const file = await api.files.upload(f, { process: true, onProgress: (sent) => patch(k, { sent }) });
            patch(k, { fileId: file.id, phase: 'uploaded', sent: f.size });
            set({ files: [file, ...get().files.filter((x) => x.id !== file.id)] });
          } catch (err) {
            noteAuth(err);
            patch(k, { phase: 'failed', error: messageOf(err) });
          }
        }),
      );
      await get().loadFiles();
    },

    clearFinished() {
      const files = get().files;
      set({ uploads: get().uploads.filter((u) => u.phase === 'uploading' || (u.fileId !== null && !TERMINAL.has(files.find((f) => f.id === u.fileId)?.status ?? ''))) });
    },

    async removeFile(id) {
      await api.files.delete(id);
      set({ files: get().files.filter((f) => f.id !== id), uploads: get().uploads.filter((u) => u.fileId !== id) });
    },
  };
});
