/**
 * The one credits formula (CONTRACT.md "Credits"), deterministic and shown in the app:
 *
 *   execution = 0.01 (base, shown at `starting`) + 0.002 per 1,000 input tokens + 0.006 per 1,000 output tokens,
 *               or 0 when it ends before the model was called (the executions service decides that)
 *   file      = 0.01 (base) + 0.01 per MiB of the stored file, charged once when processing completes
 *   memory    = 0
 *
 * Values are rounded to 6 decimals so sums stay exact enough to display.
 */
export const CREDITS = {
  executionBase: 0.01,
  per1kInputTokens: 0.002,
  per1kOutputTokens: 0.006,
  fileBase: 0.01,
  perMiB: 0.01,
} as const;

const round = (n: number) => Math.round(n * 1e6) / 1e6;

export function executionCredits(inputTokens: number, outputTokens: number): number {
  return round(CREDITS.executionBase + (Math.max(0, inputTokens) / 1000) * CREDITS.per1kInputTokens + (Math.max(0, outputTokens) / 1000) * CREDITS.per1kOutputTokens);
}

export function fileCredits(bytes: number): number {
  return round(CREDITS.fileBase + (Math.max(0, bytes) / (1024 * 1024)) * CREDITS.perMiB);
}
