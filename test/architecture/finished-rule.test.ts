import { describe, expect, it } from 'vitest';
import { executionOutcome, isFinished, type ExecutionEvent } from '../../src-main/platform/contract/executions.js';
import { collect } from '../../src-main/platform/transports/gateway/respond.js';
import type { GatewayRun } from '../../src-main/platform/transports/gateway/gateway.js';
import { linesWhere, sourcesUnder, type Source } from './sources.js';

/** The rule's home: contract/executions.ts (executionOutcome, isFinished). */
const HOME = 'src-main/platform/contract/executions.ts';

const STILL_GOING = new Set(['starting', 'awaiting_approval']);
const ENDED = new Set(['succeeded', 'completed', 'failed', 'canceled']);
/** Other status vocabularies (deliveries, steps, files, downloads, OpenAI's own): a line naming one is not about executions. */
const OTHER = /'(pending|denied|in_progress|verifying|incomplete|cancelled|queued|downloading|paused|waiting)'/;

/**
 * A second spelling of "finished": a comparison or a set naming two or more execution statuses,
 * one of them a still-going one (`starting`, `awaiting_approval`), or three ended ones, or a
 * Set/array of ended ones with `succeeded` or `canceled`.
 */
export function finishedRuleElsewhere(files: Source[]): string[] {
  return linesWhere(files, (name, line) => {
    if (name === HOME || OTHER.test(line)) return false;
    const compared = new Set([...line.matchAll(/[!=]==\s*'(\w+)'/g)].map((m) => m[1]).filter((s) => STILL_GOING.has(s) || ENDED.has(s) || s === 'running'));
    if (compared.size >= 2 && ([...compared].some((s) => STILL_GOING.has(s)) || [...compared].filter((s) => ENDED.has(s)).length >= 3)) return true;
    const listed = [...line.matchAll(/\[\s*((?:'\w+',?\s*){2,})\]/g)].flatMap((m) => [...m[1].matchAll(/'(\w+)'/g)].map((x) => x[1]));
    return listed.filter((s) => ENDED.has(s)).length >= 2 && listed.some((s) => s === 'succeeded' || s === 'canceled');
  });
}

describe('one "finished" rule (contract/executions.ts isFinished)', () => {
  it('finds planted spellings: still-going lists, ended lists, sets; leaves other vocabularies alone', () => {
    const planted = [
      "export const isFinal = (e) => e.status !== 'running' && e.status !== 'starting' && e.status !== 'awaiting_approval';",
      "if (ev.status === 'completed' || ev.status === 'succeeded' || ev.status === 'failed' || ev.status === 'canceled') terminal = true;",
      "export const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);",
      "return s.last_status === 'running' || s.last_status === 'starting';",
    ].join('\n');
    expect(finishedRuleElsewhere([{ name: 'src-main/platform/transports/openai/gateway.ts', text: planted }])).toHaveLength(4);
    const others = [
      "const TERMINAL = new Set(['completed', 'failed']);",
      "const STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const;",
      "const cls = step.status === 'succeeded' ? 'ok' : step.status === 'failed' || step.status === 'denied' ? 'error' : '';",
      "} else if (status === 'failed' || status === 'canceled') {",
    ].join('\n');
    expect(finishedRuleElsewhere([{ name: 'src-renderer/features/x.tsx', text: others }])).toEqual([]);
    expect(finishedRuleElsewhere([{ name: HOME, text: planted }])).toEqual([]);
  });

  it('holds for the platform, the preload and the renderer', () => {
    const files = sourcesUnder('src-main', 'src-preload', 'src-renderer');
    expect(files.length).toBeGreaterThan(300);
    expect(finishedRuleElsewhere(files)).toEqual([]);
  });

  it('reads every spelling: stored, streamed, live; an unknown status is still going', () => {
    for (const s of ['succeeded', 'completed', 'failed', 'canceled']) expect(isFinished(s), s).toBe(true);
    for (const s of ['starting', 'running', 'awaiting_approval', 'queued', '']) expect(isFinished(s), s).toBe(false);
    expect(executionOutcome('completed')).toBe('succeeded');
  });

  it('the /v1 doors read on past a status they do not know, to the real end', async () => {
    const events: Partial<ExecutionEvent>[] = [
      { status: 'running', output: 'Hel' },
      { status: 'thinking-hard', output: 'lo' },
      { status: 'completed', output: '' },
    ];
    const it = events[Symbol.iterator]();
    const run = { events: { next: async () => it.next() } } as unknown as GatewayRun;
    const { output, last } = await collect(run);
    expect(last?.status).toBe('completed');
    expect(output).toBe('Hello');
  });
});
