import { useEffect, useRef, useState } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { firstChatAgent, useConversation } from '../../stores/conversation';
import { useT } from '../../i18n';

/**
 * The open conversation's agent was deleted: say so, keep the history, and offer to go on with
 * another agent (the next message continues this conversation with it).
 */
export function GoneAgentNotice({ agents }: { agents: Agent[] }) {
  const t = useT();
  const continueWith = useConversation((s) => s.continueWith);
  const [pick, setPick] = useState<number | null>(firstChatAgent(agents)?.id ?? null);
  const button = useRef<HTMLButtonElement>(null);
  const chosen = agents.find((a) => a.id === pick) ?? firstChatAgent(agents);
  useEffect(() => {
    if (pick === null || !agents.some((a) => a.id === pick)) setPick(firstChatAgent(agents)?.id ?? null);
  }, [agents, pick]);
  return (
    <div className="note note-warn gone-agent" role="status" data-testid="gone-agent">
      <p>{t('chat.goneAgent.said')}</p>
      {chosen ? (
        <div className="gone-agent-actions">
          <label className="field inline">
            <span>{t('chat.goneAgent.continueWith')}</span>
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
            {t('chat.goneAgent.continue', { title: chosen.title })}
          </button>
        </div>
      ) : (
        <p className="muted small">{t('chat.goneAgent.noOther')}</p>
      )}
    </div>
  );
}
