/**
 * The local index of chat sessions. The platform stores every response and links a session's
 * turns by `root_id`, but has no "list my sessions" endpoint; this index (agent, title, the
 * response ids and the user's words per turn) lets the app list them and rebuild a session's
 * history from GET /api/agent-responses/{id}.
 */
export interface SessionMeta {
  rootId: number;
  agentId: number;
  title: string;
  updatedAt: string;
  turns: { responseId: number; user: string }[];
}

const KEY = 'agent-desk.sessions';
const MAX = 200;

export function loadSessions(): SessionMeta[] {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(raw) ? (raw as SessionMeta[]).filter((s) => typeof s?.rootId === 'number' && Array.isArray(s.turns)) : [];
  } catch {
    return [];
  }
}

export function saveSessions(list: SessionMeta[]): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, MAX)));
  } catch {}
}

/** Puts `s` first (most recent), replacing an entry with the same root or an older root it grew from. */
export function upsertSession(list: SessionMeta[], s: SessionMeta, previousRoot?: number | null): SessionMeta[] {
  return [s, ...list.filter((x) => x.rootId !== s.rootId && x.rootId !== previousRoot)];
}
