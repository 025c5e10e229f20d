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
  /** once finished: the platform's own measure (tokens it counted, from its first token) */
  timing?: { first_token_ms: number; tokens_per_second: number | null } | null;
}

/** Characters per token for the estimate: the usual rule of thumb for English and Portuguese text. */
const CHARS_PER_TOKEN = 4;

/**
 * A column's speed: once finished, the platform's timing; while it writes, as the person sees it: seconds until the first words, and (estimated) tokens per
 * second while writing, from the first words to the end (or now). Null before any text.
 */
export function compareSpeed(c: Pick<Column, 'output' | 'startedAt' | 'firstAt' | 'endAt' | 'timing'>, now = performance.now()): { firstSeconds: number; rate: number | null } | null {
  // A finished answer reads the platform's figures, the same the chat shows under each answer.
  if (c.timing) return { firstSeconds: c.timing.first_token_ms / 1000, rate: c.timing.tokens_per_second };
  if (c.firstAt === null) return null;
  const firstSeconds = Math.max(0, (c.firstAt - c.startedAt) / 1000);
  const writing = ((c.endAt ?? now) - c.firstAt) / 1000;
  const rate = writing > 0.05 ? c.output.length / CHARS_PER_TOKEN / writing : null;
  return { firstSeconds, rate };
}
