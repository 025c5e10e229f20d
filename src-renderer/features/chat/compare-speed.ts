/** One model's column in Compare: its execution, text so far, and the times its speed is read from (performance.now()). */
export interface Column {
  id: number;
  rootId: number;
  model: string;
  output: string;
  status: 'pending' | 'running' | 'succeeded' | 'failed' | 'canceled';
  error: { message: string; code: string } | null;
  startedAt: number;
  firstAt: number | null;
  endAt: number | null;
}

/** Characters per token for the estimate: the usual rule of thumb for English and Portuguese text. */
const CHARS_PER_TOKEN = 4;

/**
 * A column's speed as the person saw it: seconds until the first words, and (estimated) tokens per
 * second while writing, from the first words to the end (or now). Null before any text.
 */
export function compareSpeed(c: Pick<Column, 'output' | 'startedAt' | 'firstAt' | 'endAt'>, now = performance.now()): { firstSeconds: number; rate: number | null } | null {
  if (c.firstAt === null) return null;
  const firstSeconds = Math.max(0, (c.firstAt - c.startedAt) / 1000);
  const writing = ((c.endAt ?? now) - c.firstAt) / 1000;
  const rate = writing > 0.05 ? c.output.length / CHARS_PER_TOKEN / writing : null;
  return { firstSeconds, rate };
}
