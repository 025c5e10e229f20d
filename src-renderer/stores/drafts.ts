import { create } from 'zustand';

/**
 * What the person has typed and not sent, per conversation (a stored one by its session id, a new
 * chat as `new`): kept when they open another conversation or screen, and in this browser's
 * storage so a reload or a closed window loses nothing.
 */
const KEY = 'agent-desk.drafts';
/** Drafts kept at most; the oldest written go first. */
const MAX_DRAFTS = 50;

export const draftKey = (rootId: number | null): string => (rootId === null ? 'new' : String(rootId));

function read(): Record<string, string> {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
  } catch {
    return {};
  }
}

function write(drafts: Record<string, string>): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(drafts));
  } catch {
    // Storage full or refused: the draft still lives in this window.
  }
}

interface DraftsState {
  drafts: Record<string, string>;
  set(key: string, text: string): void;
  /** A new chat's draft becomes the conversation's once the platform names it. */
  move(from: string, to: string): void;
}

export const useDrafts = create<DraftsState>((set, get) => ({
  drafts: typeof localStorage === 'undefined' ? {} : read(),
  set(key, text) {
    const { [key]: _old, ...rest } = get().drafts;
    // Newest last, so the oldest are the first to go over the cap.
    const drafts = text ? { ...rest, [key]: text } : rest;
    const keys = Object.keys(drafts);
    for (const k of keys.slice(0, Math.max(0, keys.length - MAX_DRAFTS))) delete drafts[k];
    set({ drafts });
    write(drafts);
  },
  move(from, to) {
    const text = get().drafts[from];
    if (text === undefined || from === to) return;
    get().set(from, '');
    if (!get().drafts[to]) get().set(to, text);
  },
}));
