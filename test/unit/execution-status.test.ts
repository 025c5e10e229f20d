/**
 * One reading of an execution's status (contract/executions.ts), used by the platform's streams
 * and by the chat: CONTRACT.md "Execution" — stored executions read `succeeded`, the last event
 * of a stream reads `completed` (spec); `starting` → `running` → `succeeded` | `failed` | `canceled`.
 */
import { describe, expect, it, vi } from 'vitest';
import { executionOutcome, streamStatus } from '../../src-main/platform/contract/executions.js';
import { turnStatus } from '../../src-renderer/stores/sessions.js';
import { isTerminal } from '../../src-renderer/stores/chat-streams.js';

// chat-streams reads answers through the app's API client; isTerminal needs none of it.
vi.mock('../../src-renderer/api', () => ({}));

const event = (status: string) => ({ id: 1, status, output: '', error: null, credits: null, root_id: 1, created_at: 'x', updated_at: 'x', template_id: 1 });

describe('execution status', () => {
  it('stored `succeeded` and streamed `completed` are the same outcome', () => {
    expect(executionOutcome('succeeded')).toBe('succeeded');
    expect(executionOutcome('completed')).toBe('succeeded');
  });

  it('failed and canceled are ends of their own; starting, running and a wait for approval are still going', () => {
    expect(executionOutcome('failed')).toBe('failed');
    expect(executionOutcome('canceled')).toBe('canceled');
    for (const s of ['starting', 'running', 'awaiting_approval', 'something new']) expect(executionOutcome(s), s).toBe('running');
  });

  it('a stream says `completed` where the stored row says `succeeded`, and nothing else changes', () => {
    expect(streamStatus('succeeded')).toBe('completed');
    for (const s of ['starting', 'running', 'failed', 'canceled']) expect(streamStatus(s)).toBe(s);
  });

  it('the chat reads statuses with it: a turn shows the outcome, a stream ends on any end', () => {
    expect(turnStatus).toBe(executionOutcome);
    for (const s of ['completed', 'succeeded', 'failed', 'canceled']) expect(isTerminal(event(s)), s).toBe(true);
    for (const s of ['starting', 'running', 'awaiting_approval']) expect(isTerminal(event(s)), s).toBe(false);
    expect(isTerminal(null)).toBe(false);
  });
});
