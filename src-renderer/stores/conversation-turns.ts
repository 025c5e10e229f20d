import type { SessionDetail } from '../../src-main/platform/contract/sessions';
import type { ExecutionEvent } from '../api';
import { ROOT, type Turn } from './conversation-tree';
import { turnStatus } from './sessions';

/** The turns of a conversation as data: made new, read from a stored session, moved on by an event. */

let seq = 0;
const newKey = () => `t${Date.now().toString(36)}${seq++}`;
const execKey = (id: number) => `e${id}`;

export const isLive = (t: Turn) => t.status === 'pending' || t.status === 'running';

/** A turn just asked, its answer not yet named by the platform. */
export const blank = (user: string, parent: string, attachments: Turn['attachments'] = []): Turn => ({
  key: newKey(),
  parent,
  user,
  attachments,
  responseId: null,
  output: '',
  status: 'pending',
  error: null,
  credits: null,
  model: null,
  at: null,
  lastTextAt: null,
});

/**
 * A stored session's turns, all branches: the history it started from (an older regenerate) first,
 * then its executions. `main`: the question the text answered, for agents that are not chats.
 */
export function treeOfSession(s: SessionDetail, main: string | null): Turn[] {
  const tree: Turn[] = [];
  for (const t of s.earlier) {
    if (t.role === 'user') tree.push({ ...blank(t.content, tree[tree.length - 1]?.key ?? ROOT), status: 'succeeded' });
    else if (tree.length) tree[tree.length - 1].output = t.content;
  }
  const start = tree[tree.length - 1]?.key ?? ROOT;
  for (const e of s.executions) {
    const status = turnStatus(e.status);
    tree.push({
      key: execKey(e.id),
      parent: e.parent_id ? execKey(e.parent_id) : start,
      user: shownInput(e.input, main),
      attachments: [],
      responseId: e.id,
      output: e.output,
      status,
      // Stopped by the person is not an error (UX.md).
      error: status === 'canceled' ? null : e.error,
      credits: e.credits,
      timing: e.timing ?? null,
      steps: e.steps ?? [],
      model: e.model ?? null,
      at: e.created_at,
      lastTextAt: null,
    });
  }
  return tree;
}

/**
 * What one event of a turn's answer changes. `replace`: the event holds the whole text so far
 * (the first event of a re-attached stream). `now`: this page's clock (the one that counts a stall).
 */
export function eventPatch(t: Turn, e: ExecutionEvent, replace: boolean, now: string): Partial<Turn> {
  const status = turnStatus(e.status);
  const text = e.status === 'running' ? e.output : '';
  return {
    responseId: e.id,
    status,
    output: replace ? text : t.output + text,
    credits: e.credits ?? t.credits,
    // Stopped by the person is not an error (UX.md): the partial text stays, without a red box.
    error: status === 'canceled' ? null : (e.error ?? null),
    at: t.at ?? e.created_at,
    // Timed from when the text arrived here.
    lastTextAt: text || replace || !t.lastTextAt ? now : t.lastTextAt,
    waiting: !!e.steps?.some((s) => s.status === 'awaiting_approval'),
  };
}

/** What the user typed for a stored execution: another agent's input is its answers as JSON. */
function shownInput(input: string, main: string | null): string {
  if (!main) return input;
  try {
    const v = (JSON.parse(input) as Record<string, unknown>)[main];
    return typeof v === 'string' ? v : input;
  } catch {
    return input;
  }
}
