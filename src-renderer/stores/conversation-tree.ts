import type { ToolStep } from '../../src-main/platform/contract/tools';

/**
 * A conversation is a tree: each turn follows a parent (ROOT for the first), and turns sharing a
 * parent are alternatives (a regenerated answer, an edited message). The chat shows one branch.
 */
export const ROOT = 'root';

export interface Turn {
  key: string;
  /** the key of the turn this one follows, or ROOT */
  parent: string;
  user: string;
  attachments: { id: number; name: string }[];
  responseId: number | null;
  output: string;
  status: 'pending' | 'running' | 'succeeded' | 'failed' | 'canceled';
  error: { message: string; code?: string } | null;
  credits: number | null;
  /** its tool calls as stored (undefined: not known here yet, read from the platform) */
  steps?: ToolStep[];
  /** a finished answer's speed (ext `timing`), when the platform recorded it */
  timing?: { first_token_ms: number; tokens_per_second: number | null } | null;
  /** the model that answered, once known */
  model: string | null;
  /** when it was asked (ISO) */
  at: string | null;
  /** while it runs: when its latest text arrived here (ISO), for "No new text for 42 s" */
  lastTextAt?: string | null;
  /** a tool call of it waits for the person's answer */
  waiting?: boolean;
  /** Stop was pressed before the platform named the answer: cancel it as soon as it does */
  stopWanted?: boolean;
  /** on the shown branch: which alternative this is (1-based) and how many there are */
  alt?: number;
  alts?: number;
  /** the keys of its alternatives, oldest first */
  siblings?: string[];
}

/**
 * A turn as the branch shows it (its place among its alternatives). The same object while the turn
 * and its alternatives are unchanged, so a long conversation redraws only the turn that changed.
 */
const shownCache = new WeakMap<Turn, { siblings: string; turn: Turn }>();
function shown(pick: Turn, kids: Turn[]): Turn {
  const siblings = kids.map((k) => k.key);
  const sig = siblings.join(' ');
  const hit = shownCache.get(pick);
  if (hit?.siblings === sig) return hit.turn;
  const turn = { ...pick, alt: kids.indexOf(pick) + 1, alts: kids.length, siblings };
  shownCache.set(pick, { siblings: sig, turn });
  return turn;
}

/** The branch to show: from ROOT, at each step the chosen alternative, else the newest. */
export function pathOf(tree: Turn[], chosen: Record<string, string>): Turn[] {
  const children = new Map<string, Turn[]>();
  for (const t of tree) {
    const list = children.get(t.parent) ?? [];
    list.push(t);
    children.set(t.parent, list);
  }
  const out: Turn[] = [];
  let at = ROOT;
  const seen = new Set<string>();
  for (;;) {
    const kids = children.get(at);
    if (!kids?.length || seen.has(at)) return out;
    seen.add(at);
    const pick = kids.find((k) => k.key === chosen[at]) ?? kids[kids.length - 1];
    out.push(shown(pick, kids));
    at = pick.key;
  }
}
