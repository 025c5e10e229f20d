import type { Agent } from '../../../src-main/platform/contract/agents';
import { api } from '../../api';

/**
 * A copy of a local agent under a new name: its kind, description, instructions, questions (with
 * their defaults), tools and linked files. Webhooks, schedules and conversations stay with the
 * original: they are about that agent.
 */
export async function duplicateAgent(a: Agent, title: string): Promise<Agent> {
  const copy = await api.agents.create({
    title,
    type: a.type,
    description: a.description,
    long_description: a.long_description,
    instructions: a.instructions,
    questions: a.questions,
    tool_servers: a.tool_servers ?? [],
  });
  const linked = await api.agents.files(a.id);
  if (linked.files.length) await api.agents.linkFiles(copy.id, linked.files.map((f) => f.id));
  return copy;
}
