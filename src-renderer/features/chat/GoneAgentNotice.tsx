import { useEffect, useRef, useState } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { firstChatAgent, useConversation } from '../../stores/conversation';

/**
 * The open conversation's agent was deleted: say so, keep the history, and offer to go on with
 * another agent (the next message continues this conversation with it).
 */
export function GoneAgentNotice({ agents }: { agents: Agent[] }) {
  const continueWith = useConversation((s) => s.continueWith);
  const [pick, setPick] = useState<number | null>(firstChatAgent(agents)?.id ?? null);
  const button = useRef<HTMLButtonElement>(null);
  const chosen = agents.find((a) => a.id === pick) ?? firstChatAgent(agents);
  useEffect(() => {
    if (pick === null || !agents.some((a) => a.id === pick)) setPick(firstChatAgent(agents)?.id ?? null);
  }, [agents, pick]);
  return (
    <div className="note note-warn gone-agent" role="status" data-testid="gone-agent">
      <p>This conversation's agent was deleted. Its messages stay here; choose an agent to continue it.</p>
      {chosen ? (
        <div className="gone-agent-actions">
          <label className="field inline">
            <span>Continue with</span>
            <select value={chosen.id} onChange={(e) => setPick(Number(e.target.value))} data-testid="gone-agent-pick">
              {agents.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.title}
                </option>
              ))}
            </select>
          </label>
          <button
            ref={button}
            type="button"
            className="btn btn-primary btn-small"
            onClick={() => {
              continueWith(chosen);
              // The message box is where the person goes next.
              requestAnimationFrame(() => document.getElementById('chat-input')?.focus());
            }}
          >
            Continue with {chosen.title}
          </button>
        </div>
      ) : (
        <p className="muted small">There is no other agent yet. Create one on the Agents screen.</p>
      )}
    </div>
  );
}
