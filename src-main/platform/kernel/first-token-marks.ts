/**
 * Opt-in time marks along a streamed request's path to its first text (set
 * AGENT_DESK_FIRST_TOKEN_MARKS=1): the gateway bench reads them (`takeMarks`) to show where Agent
 * Desk's own first-token time goes. Off (the default) a mark is one boolean test.
 */
const enabled = process.env.AGENT_DESK_FIRST_TOKEN_MARKS === '1';
/** Bounded: a server left running with marks on keeps only the latest ones. */
const MAX_MARKS = 50_000;

export interface Mark {
  label: string;
  /** performance.now() */
  at: number;
}

let marks: Mark[] = [];

export const marksOn = (): boolean => enabled;

export function mark(label: string): void {
  if (!enabled) return;
  if (marks.length >= MAX_MARKS) marks = marks.slice(MAX_MARKS / 2);
  marks.push({ label, at: performance.now() });
}

/** The marks so far, oldest first; the list starts empty again. */
export function takeMarks(): Mark[] {
  const out = marks;
  marks = [];
  return out;
}
