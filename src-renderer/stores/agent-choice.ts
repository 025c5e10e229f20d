import { create } from 'zustand';
import type { Agent } from '../../src-main/platform/contract/agents';
import { mainTextQuestion, type Answers } from './answers';
import { saveChoice } from './chat-answers';

/**
 * The chat's agent choice: which agent the next message goes to, the question its text answers
 * (agents that are not chats), and the model and options it runs with (chat-answers.ts says where
 * they come from: the last choice, or the open conversation's own).
 */
interface AgentChoiceState {
  agentId: number | null;
  /** for agents that are not chats: the question the composer's text answers */
  mainQuestion: string | null;
  /** the open conversation's model and options */
  answers: Answers;
  /** Takes `agent` with `answers`. */
  pick(agent: Agent, answers: Answers): void;
  /** The conversation's agent is not among those loaded: only its id is known. */
  pickId(agentId: number): void;
  /** One answer changed by the person; it becomes the last choice for the agent. Returns all answers. */
  setAnswer(name: string, value: unknown): Answers;
}

export const useAgentChoice = create<AgentChoiceState>((set, get) => ({
  agentId: null,
  mainQuestion: null,
  answers: {},

  pick(agent, answers) {
    set({ agentId: agent.id, mainQuestion: composerQuestion(agent), answers });
  },

  pickId(agentId) {
    set({ agentId });
  },

  setAnswer(name, value) {
    const answers = { ...get().answers, [name]: value };
    set({ answers });
    // What the person picks is what a new chat starts with; the answers they left alone follow the agent.
    const { agentId } = get();
    if (agentId !== null) saveChoice(agentId, name, value);
    return answers;
  },
}));

/** The text of the agent's main question, for agents that are not chats (what the composer fills). */
export function composerQuestion(agent: Agent | null): string | null {
  return agent && agent.type !== 'chat' ? (mainTextQuestion(agent.questions)?.name ?? null) : null;
}
