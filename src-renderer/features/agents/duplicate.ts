import type { Agent } from '../../../src-main/platform/contract/agents';
import { api, ops } from '../../api';

/**
 * A copy of a local agent under a new name: its kind, description, instructions, questions (with
 * their defaults), tools and linked files. Webhooks, schedules and conversations stay with the
 * original: they are about that agent.
 */
export async function duplicateAgent(a: Agent, title: string): Promise<Agent> {
  const copy = await api.call(ops.createAgent, {
    body: {
      title,
      type: a.type,
      description: a.description,
      long_description: a.long_description,
      instructions: a.instructions,
      questions: a.questions,
      tool_servers: a.tool_servers ?? [],
    },
  });
  const linked = await api.call(ops.listAgentFiles, { params: { agentId: a.id } });
  if (linked.files.length) await api.call(ops.linkAgentFiles, { params: { agentId: copy.id }, body: { file_ids: linked.files.map((f) => f.id) } });
  return copy;
}
