// @vitest-environment jsdom
/**
 * The open conversation's store holds only the tree and the chosen branches: the branch shown and
 * whether an answer is being written are derived by selectors (the same array while neither
 * changes), and they follow a sent message, its streamed answer, a regenerate and a choice.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Agent } from '../../src-main/platform/contract/agents';
import type { ExecutionEvent } from '../../src-main/platform/contract/executions';

/** Each execute stream waits here until the test ends it, so its events can be sent one by one. */
const streams: { body: Record<string, unknown>; onEvent: (e: ExecutionEvent) => void; end: (last: ExecutionEvent) => void }[] = [];
/** The stream's last event, as the client delivers it: to `onEvent`, then as the answer. */
const finish = (i: number, last: ExecutionEvent) => (streams[i].onEvent(last), streams[i].end(last));

vi.mock('../../src-renderer/api', async () => ({
  ...(await import('../../src-renderer/api/errors')),
  ops: (await import('../../src-renderer/api/operations')).ops,
  api: {
    transport: 'http',
    stream: (_op: unknown, input: { body: Record<string, unknown> }, onEvent: (e: ExecutionEvent) => void) => new Promise((end) => streams.push({ body: input.body, onEvent, end })),
    async call(op: { path: string }) {
      if (op.path === '/sessions') return { data: [], total: 0 };
      throw new Error('not stored here');
    },
  },
}));

const { useConversation, selectBusy, selectTurns } = await import('../../src-renderer/stores/conversation');
const { useAgentChoice } = await import('../../src-renderer/stores/agent-choice');

const agent = { id: 7, type: 'chat', title: 'Chat', questions: [] } as unknown as Agent;
const ev = (id: number, status: string, output: string): ExecutionEvent => ({ id, root_id: 40, status, output, error: null, credits: null, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', template_id: 7 }) as ExecutionEvent;
const state = () => useConversation.getState();
const shown = () => selectTurns(state()).map((t) => `${t.user}→${t.output} (${t.alt}/${t.alts})`);

beforeEach(() => {
  streams.length = 0;
  useConversation.getState().selectAgent(agent);
  useConversation.getState().newSession();
});

describe('the open conversation', () => {
  it('a new chat clears the address even when no conversation was open yet (the one it named would open later)', async () => {
    const { useNav } = await import('../../src-renderer/stores/nav');
    location.hash = '#/chat/12';
    await new Promise((r) => window.addEventListener('hashchange', r, { once: true }));
    expect(useNav.getState().sub).toBe('12');
    expect(state().rootId).toBe(null);
    state().newSession();
    expect(useNav.getState().sub).toBe('');
    expect(location.hash).toBe('#/chat');
  });

  it('stores the tree and the choice only; the branch shown and busy follow them', async () => {
    expect(Object.keys(state())).not.toContain('turns');
    expect(Object.keys(state())).not.toContain('busy');
    expect(useAgentChoice.getState().agentId).toBe(7);

    const sending = state().send('Hi');
    expect(shown()).toEqual(['Hi→ (1/1)']);
    expect(selectBusy(state())).toBe(true);
    // Derived, yet stable: the same array while the tree and the choice stay.
    expect(selectTurns(state())).toBe(selectTurns(state()));

    streams[0].onEvent(ev(41, 'running', 'Hel'));
    streams[0].onEvent(ev(41, 'running', 'lo'));
    expect(shown()).toEqual(['Hi→Hello (1/1)']);
    expect(state().rootId).toBe(40);
    finish(0, ev(41, 'completed', ''));
    await sending;
    expect(selectBusy(state())).toBe(false);

    const again = state().regenerate();
    expect(streams[1].body).toMatchObject({ alternative_of: 41 });
    expect(shown()).toEqual(['Hi→ (2/2)']);
    streams[1].onEvent(ev(42, 'running', 'Hey'));
    finish(1, ev(42, 'completed', ''));
    await again;

    const first = selectTurns(state())[0].siblings![0];
    state().choose(first);
    expect(shown()).toEqual(['Hi→Hello (1/2)']);
    expect(selectBusy(state())).toBe(false);
  });

  it('a new chat empties the branch shown, and late events of the last one are dropped', async () => {
    const sending = state().send('Hi');
    state().newSession();
    expect(selectTurns(state())).toEqual([]);
    expect(selectBusy(state())).toBe(false);
    streams[0].onEvent(ev(51, 'running', 'late'));
    expect(state().tree).toEqual([]);
    finish(0, ev(51, 'completed', ''));
    await sending;
  });
});
