import type { Session, SessionDetail } from '../../contract/sessions.js';
import type { ExecutionContext } from '../../contract/executions.js';
import type { Turn } from '../../engine/turn.js';
import type { ExecutionRow } from './store.js';
import { isObject, readStoredJson } from '../../kernel/stored-json.js';
import { storedTurns } from './sessions.js';

/**
 * A session as a file a person keeps: Markdown (the chosen path: from the first turn to the
 * latest execution, through the parents) or JSON (the session with every branch).
 */

/** The chosen path: the latest execution and its ancestors, oldest first. */
export function chosenPath(rows: ExecutionRow[]): ExecutionRow[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const path: ExecutionRow[] = [];
  let at = rows.length ? rows[rows.length - 1] : undefined;
  while (at && !path.includes(at)) {
    path.unshift(at);
    at = at.parent_id !== null ? byId.get(at.parent_id) : undefined;
  }
  return path;
}


/** A citation's label, unique in the file: turn number and passage number. */
const label = (turn: number, n: number) => `${turn}.${n}`;

/** An answer's `[n]` citations as footnote references, and the footnotes of the passages it cites. */
function withFootnotes(answer: string, context: ExecutionContext | null, turn: number): { text: string; notes: string[] } {
  const passages = new Map((context?.passages ?? []).filter((p) => p.n !== undefined).map((p) => [p.n!, p]));
  if (!passages.size) return { text: answer, notes: [] };
  const used = new Set<number>();
  const text = answer.replace(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g, (whole, list: string) => {
    const ns = list.split(',').map((n) => Number(n.trim()));
    if (!ns.every((n) => passages.has(n))) return whole;
    ns.forEach((n) => used.add(n));
    return ns.map((n) => `[^${label(turn, n)}]`).join('');
  });
  const notes = [...used]
    .sort((a, b) => a - b)
    .map((n) => {
      const p = passages.get(n)!;
      const where = `${p.filename ?? 'a file'}${p.position !== undefined ? `, passage ${p.position + 1}` : ''}`;
      const excerpt = p.text.replace(/\s+/g, ' ').trim();
      return `[^${label(turn, n)}]: ${where}: "${Array.from(excerpt).length > 300 ? `${Array.from(excerpt).slice(0, 300).join('')}…` : excerpt}"`;
    });
  return { text, notes };
}

const quote = (text: string) =>
  text
    .split('\n')
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');

/** Markdown of the chosen path: the title, then each user message and each answer with its model; citations as footnotes. */
export function sessionMarkdown(session: Session, rows: ExecutionRow[], agentTitle: string | null): string {
  const path = chosenPath(rows);
  const out: string[] = [`# ${session.title.replace(/\n/g, ' ')}`, ''];
  out.push(`${agentTitle ? `Agent: ${agentTitle} · ` : ''}Started ${session.created_at.slice(0, 10)} · Exported from Agent Desk`, '');
  if (session.instructions) out.push('## Instructions for this conversation', '', quote(session.instructions), '');
  const notes: string[] = [];
  const userTurn = (t: Turn) => out.push('## You', '', t.content, '');
  // Each execution holds the turns it added (a session's first holds any history it started from).
  path.forEach((r, i) => {
    for (const t of storedTurns(r.turns, r.id)) {
      if (t.role === 'user') userTurn(t);
      else out.push('## Assistant', '', t.content, '');
    }
    if (!storedTurns(r.turns, r.id).length && r.input) userTurn({ role: 'user', content: r.input });
    const model = r.model ? ` (${r.model})` : '';
    out.push(`## Assistant${model}`, '');
    const { text, notes: own } = withFootnotes(r.output, readStoredJson<ExecutionContext | null>(r.context, { column: 'executions.context', id: r.id }, null, isObject), i + 1);
    if (text) out.push(text, '');
    if (r.status === 'failed') out.push(`*This answer failed: ${r.error_message ?? 'no reason was given'}*`, '');
    else if (r.status === 'canceled') out.push('*This answer was stopped.*', '');
    else if (r.status !== 'succeeded') out.push('*This answer was still being written.*', '');
    notes.push(...own);
  });
  if (notes.length) out.push('---', '', ...notes, '');
  return `${out.join('\n').trimEnd()}\n`;
}

/** The JSON export: the session with every execution (every branch), as GET /api/sessions/{id} answers it. */
export function sessionJson(detail: SessionDetail): string {
  return `${JSON.stringify({ ...detail, format: 'agent-desk-session', version: 1 }, null, 2)}\n`;
}

/** `Content-Disposition` naming the file after the session: an ASCII fallback and the UTF-8 name. */
export function attachment(title: string, ext: 'md' | 'json'): string {
  const base = Array.from(title.replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ').replace(/\s+/g, ' ').trim()).slice(0, 60).join('').trim() || 'conversation';
  const ascii = base.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}.${ext}"; filename*=UTF-8''${encodeURIComponent(`${base}.${ext}`)}`;
}
