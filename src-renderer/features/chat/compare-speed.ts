import type { ExecutionTiming } from '../../../src-main/platform/contract/executions';

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
  timing?: ExecutionTiming | null;
}

/** Characters per token for the estimate: the usual rule of thumb for English and Portuguese text. */
const CHARS_PER_TOKEN = 4;

/**
 * A column's speed. Finished: the platform's measure, the same every answer in the chat shows
 * (null until it is read, never an estimate dressed as a result). While it writes: an estimate as
 * the person sees it, seconds until the first words and about four characters a token per second
 * since. Null before any text.
 */
export type ColumnSpeed = { measured: ExecutionTiming } | { estimate: { firstSeconds: number; rate: number | null } } | null;

export function compareSpeed(c: Pick<Column, 'output' | 'startedAt' | 'firstAt' | 'endAt' | 'timing'>, now = performance.now()): ColumnSpeed {
  if (c.timing) return { measured: c.timing };
  if (c.endAt !== null || c.firstAt === null) return null;
  const firstSeconds = Math.max(0, (c.firstAt - c.startedAt) / 1000);
  const writing = (now - c.firstAt) / 1000;
  const rate = writing > 0.05 ? c.output.length / CHARS_PER_TOKEN / writing : null;
  return { estimate: { firstSeconds, rate } };
}
