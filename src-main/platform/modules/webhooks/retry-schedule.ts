import { backoffDelay } from '../../kernel/backoff.js';

/**
 * When webhook deliveries are attempted (CONTRACT.md "Webhooks": at least 5 attempts over at
 * least an hour). The default is 7 attempts: at once, then after about 5 s, 5 min, 30 min, 2 h,
 * 5 h and 10 h (about 17.6 h in all), each delay jittered by ±20 % so that many deliveries that
 * failed together do not all come back in the same instant.
 */
export const DEFAULT_RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000];
export const DEFAULT_TIMEOUT_MS = 10_000;
const JITTER = 0.2;

export interface DeliverySettings {
  /** Delay before retry n+1 (index 0: after the first failed attempt). */
  retryDelaysMs: number[];
  /** A 2xx must arrive within this time. */
  timeoutMs: number;
}

/**
 * Reads the settings from env (tests and power users shorten them):
 * `AGENT_DESK_WEBHOOK_TIMEOUT_MS` and `AGENT_DESK_WEBHOOK_RETRY_DELAYS_MS` (comma-separated ms).
 * A malformed value falls back to the default rather than disabling retries.
 */
export function deliverySettings(env: Record<string, string | undefined>): DeliverySettings {
  const timeout = Number(env.AGENT_DESK_WEBHOOK_TIMEOUT_MS);
  const delays = (env.AGENT_DESK_WEBHOOK_RETRY_DELAYS_MS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  return {
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS,
    retryDelaysMs: delays.length && delays.every((d) => Number.isFinite(d) && d >= 0) ? delays : DEFAULT_RETRY_DELAYS_MS,
  };
}

/** The queue's backoff: `attempts` made so far (1 after the first failure), jittered. */
export function backoff(delays: number[], attempts: number, random: () => number = Math.random): number {
  return backoffDelay({ waits: delays, jitter: JITTER }, attempts - 1, random);
}
