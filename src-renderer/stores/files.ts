import { create } from 'zustand';
import { api, ApiError, messageOf, ops, type FileObject, type FileStatus } from '../api';
import { fileOf, forget, isRetriable, newUpload, sendFile, type Upload } from './uploads';

/** An upload (uploads.ts) of the Files screen: done once its bytes are stored (the list shows its reading). */
export type FileUpload = Upload<'uploaded'>;

/** The Files screen's filters, applied by the server (`GET /api/files?status=&q=`). */
export interface FileFilter {
  status: FileStatus | '';
  q: string;
}

/** The Files screen: the workspace's files, page by page under a filter, and the uploads made here. */
interface FilesState {
  uploads: FileUpload[];
  /** Latest known state of this session's uploads, whether or not the current filter shows them. */
  uploaded: Record<number, FileObject>;
  /** The pages of the file list loaded so far, for the current filter. */
  files: FileObject[];
  filter: FileFilter;
  pages: number;
  hasMore: boolean;
  loadingMore: boolean;
  filesError: unknown;
  loaded: boolean;
  loadFiles(): Promise<void>;
  loadMore(): Promise<void>;
  setFilter(filter: Partial<FileFilter>): Promise<void>;
  upload(files: File[]): Promise<void>;
  /** Sends a failed upload's file again. */
  retry(key: string): Promise<void>;
  /** Takes a failed upload off the list. */
  dismiss(key: string): void;
  clearFinished(): void;
  removeFile(id: number): Promise<void>;
}

export const PAGE_SIZE = 50;
const TERMINAL = new Set(['completed', 'failed']);
const POLL_MS = 600;
let seq = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
/** Bumped by every filter change: an answer to an older filter is dropped, never shown. */
let generation = 0;

const query = (f: FileFilter, page: number) => ({ page, per_page: PAGE_SIZE, status: f.status, q: f.q.trim() });

export const useFiles = create<FilesState>((set, get) => {
  /** Pages 1..n of the current filter, in order; `more` when the last one was full. */
  const fetchPages = async (n: number) => {
    const f = get().filter;
    const out: FileObject[] = [];
    let more = false;
    for (let page = 1; page <= n; page++) {
      const res = await api.call(ops.listFiles, { query: query(f, page) });
      out.push(...res.data);
      more = res.data.length === PAGE_SIZE;
      if (!more) break;
    }
    return { files: out, more };
  };

  const remember = (files: FileObject[]) => {
    const mine = get().uploads.map((u) => u.fileId);
    const hits = files.filter((f) => mine.includes(f.id));
    if (hits.length) set({ uploaded: { ...get().uploaded, ...Object.fromEntries(hits.map((f) => [f.id, f])) } });
  };

  /** This session's uploads still processing that the filter hides: asked for one by one. */
  const refreshHiddenUploads = async () => {
    const shown = new Set(get().files.map((f) => f.id));
    const busy = Object.values(get().uploaded).filter((f) => !TERMINAL.has(f.status) && !shown.has(f.id));
    for (const f of busy.slice(0, 20)) {
      try {
        const now = await api.call(ops.getFile, { params: { fileId: f.id } });
        set({ uploaded: { ...get().uploaded, [f.id]: now } });
      } catch (err) {
        // Deleted meanwhile: stop following it.
        if (err instanceof ApiError && err.status === 404) {
          const rest = { ...get().uploaded };
          delete rest[f.id];
          set({ uploaded: rest });
        }
      }
    }
  };

  /** Polls while any file is still being processed (there is no push channel for it). */
  const schedule = () => {
    if (timer) return;
    const s = get();
    const busy = s.files.some((f) => !TERMINAL.has(f.status)) || Object.values(s.uploaded).some((f) => !TERMINAL.has(f.status)) || s.uploads.some((u) => u.phase === 'uploading');
    if (!busy) return;
    timer = setTimeout(async () => {
      timer = null;
      await refreshHiddenUploads();
      await get().loadFiles();
    }, POLL_MS);
  };

  const patch = (k: string, p: Partial<FileUpload>) => set({ uploads: get().uploads.map((u) => (u.key === k ? { ...u, ...p } : u)) });

  /** Uploads one listed file; a failure stays on its row with the reason (never a full bar). */
  const send = async (k: string) => {
    const f = fileOf(k);
    if (!f) return;
    patch(k, { phase: 'uploading', sent: 0, error: undefined, retriable: undefined });
    try {
      const file = await sendFile(f, (sent) => patch(k, { sent: Math.min(sent, f.size) }));
      forget(k);
      patch(k, { fileId: file.id, phase: 'uploaded', sent: f.size });
      set({ uploaded: { ...get().uploaded, [file.id]: file } });
      if (file.status !== 'completed' && file.status !== 'failed') {
        void api
          .call(ops.processFile, { params: { fileId: file.id } })
          .then((now) => set({ uploaded: { ...get().uploaded, [now.id]: now } }))
          // A failure shows in the list the reload below brings.
          .catch(() => undefined)
          .finally(() => void get().loadFiles());
      }
      // Shown at once when no filter is set; otherwise the reload after it decides.
      const { status, q } = get().filter;
      if (!status && !q.trim()) set({ files: [file, ...get().files.filter((x) => x.id !== file.id)] });
    } catch (err) {
      patch(k, { phase: 'failed', error: messageOf(err), retriable: isRetriable(err) });
    }
  };

  return {
    uploads: [],
    uploaded: {},
    files: [],
    filter: { status: '', q: '' },
    pages: 1,
    hasMore: false,
    loadingMore: false,
    filesError: null,
    loaded: false,

    /** Reloads every page shown so far (so polling never shrinks what the user paged to). */
    async loadFiles() {
      const gen = generation;
      try {
        const { files, more } = await fetchPages(get().pages);
        if (gen !== generation) return;
        set({ files, hasMore: more, filesError: null, loaded: true });
        remember(files);
      } catch (err) {
        if (gen !== generation) return;
        set({ filesError: err, loaded: true });
      }
      schedule();
    },

    async loadMore() {
      const s = get();
      if (!s.hasMore || s.loadingMore) return;
      const gen = generation;
      set({ loadingMore: true });
      try {
        const res = await api.call(ops.listFiles, { query: query(s.filter, s.pages + 1) });
        if (gen !== generation) return;
        // A file uploaded meanwhile shifts pages by one: skip what is already shown.
        const seen = new Set(get().files.map((f) => f.id));
        set({ files: [...get().files, ...res.data.filter((f) => !seen.has(f.id))], pages: s.pages + 1, hasMore: res.data.length === PAGE_SIZE, filesError: null });
        remember(res.data);
      } catch (err) {
        if (gen === generation) set({ filesError: err });
      } finally {
        if (gen === generation) set({ loadingMore: false });
      }
    },

    async setFilter(change) {
      const filter = { ...get().filter, ...change };
      if (filter.status === get().filter.status && filter.q === get().filter.q) return;
      generation++;
      set({ filter, pages: 1, hasMore: false, loadingMore: false });
      await get().loadFiles();
    },

    async upload(files) {
      const added: FileUpload[] = files.map((f) => newUpload(`u${seq++}`, f));
      set({ uploads: [...added, ...get().uploads] });
      await Promise.all(added.map((u) => send(u.key)));
      await get().loadFiles();
    },

    async retry(key) {
      if (!get().uploads.some((u) => u.key === key && u.phase === 'failed')) return;
      await send(key);
      await get().loadFiles();
    },

    dismiss(key) {
      forget(key);
      set({ uploads: get().uploads.filter((u) => u.key !== key) });
    },

    clearFinished() {
      const { uploaded } = get();
      const kept = get().uploads.filter((u) => u.phase === 'uploading' || (u.fileId !== null && !TERMINAL.has(uploaded[u.fileId]?.status ?? '')));
      for (const u of get().uploads) if (!kept.includes(u)) forget(u.key);
      set({ uploads: kept });
    },

    async removeFile(id) {
      await api.call(ops.deleteFile, { params: { fileId: id } });
      const rest = { ...get().uploaded };
      delete rest[id];
      set({ files: get().files.filter((f) => f.id !== id), uploads: get().uploads.filter((u) => u.fileId !== id), uploaded: rest });
    },
  };
});
