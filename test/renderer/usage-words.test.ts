/** The Usage screen's rows per agent: titles, and the agents deleted since as one "Deleted agents" row, never an id. */
import { describe, expect, it } from 'vitest';
import type { WorkspaceUsageRow } from '../../src-main/platform/contract/usage';
import { summarise } from '../../src-renderer/features/usage/usage-data';

const row = (agent_id: number, agent_title: string | null, credits: number): WorkspaceUsageRow =>
  ({ date: '2026-11-28', agent_id, agent_title, model: 'gpt-4o-mini', executions: 1, credits, input_tokens: 10, output_tokens: 20 }) as unknown as WorkspaceUsageRow;

describe('usage per agent', () => {
  it('puts the deleted agents in one row named in words, no ids', () => {
    const { agents } = summarise([row(1, 'Chat', 5), row(5, null, 2), row(7, null, 1)], ['2026-11-28']);
    expect(agents.map((a) => [a.label, a.credits])).toEqual([
      ['Chat', 5],
      ['Deleted agents', 3],
    ]);
    expect(agents.map((a) => a.label).join(' ')).not.toMatch(/#|\d/);
  });
});
