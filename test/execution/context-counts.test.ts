/**
 * The context builder counts tokens only when a count could change what is sent: a context that
 * fits at the most each text can cost (a byte per token) is sent without counting, and one that
 * does not is counted exactly, so what is kept is what exact counts keep. The prompt's tokens, when
 * read, are the exact count of what was sent.
 */
import { describe, expect, it } from 'vitest';
import { buildContext, type ContextSources } from '../../src-main/platform/engine/context.js';
import { tokenCounter } from '../../src-main/platform/engine/tokens.js';

const MEMORY = 'likes long walks in the park on sunny days';
const sources = (memories: string[]): ContextSources => ({
  memories: () => memories.map((memory, i) => ({ id: i + 1, memory })),
  passages: () => [],
  linkedFileIds: () => [],
});
const base = { userId: 1, agentId: 1, instructions: 'Be brief.', developer: null, query: 'walks', fileIds: [], model: 'm' };

describe('token counts in the context builder', () => {
  it('keeps every memory that fits by exact count, even when their bytes exceed the budget', async () => {
    const count = await tokenCounter();
    const memories = Array.from({ length: 15 }, () => MEMORY);
    // The memory budget is a tenth of what the window leaves: 200 tokens here.
    const window = { contextWindow: 2512, reserveOutput: 512 };
    const exactCost = memories.reduce((n, m) => n + count(m) + 2, 0);
    const byteCost = memories.reduce((n, m) => n + Buffer.byteLength(m) + 2, 0);
    expect(exactCost).toBeLessThanOrEqual(200);
    expect(byteCost).toBeGreaterThan(200);
    const built = await buildContext({ ...base, ...window, conversation: [{ role: 'user', content: 'Where should I walk?' }] }, sources(memories));
    expect(built.used.memories).toHaveLength(15);
  });

  it('a context that fits whole is sent as it is, and its prompt tokens are the exact count of what was sent', async () => {
    const count = await tokenCounter();
    const conversation = [
      { role: 'user' as const, content: 'Where should I walk?' },
      { role: 'assistant' as const, content: 'By the river.' },
      { role: 'user' as const, content: 'And after that?' },
    ];
    const built = await buildContext({ ...base, contextWindow: 8192, reserveOutput: 1024, conversation }, sources([MEMORY]));
    expect(built.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(built.used.memories).toEqual([{ id: 1, memory: MEMORY }]);
    const sent = built.messages.reduce((n, m) => n + count(m.content) + 4, 0);
    expect(built.inputTokens).toBe(sent);
  });
});
