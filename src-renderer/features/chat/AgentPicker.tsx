import type { Agent } from '../../../src-main/platform/contract/agents';
import { useConversation } from '../../stores/conversation';
import { SourceBadge } from '../agents/SourceBadge';
import { t as tr, useT } from '../../i18n';

/** An agent by its title (its kind is not what people pick it by), marked when it runs on the remote platform. */
const option = (a: Agent) => (
  <option key={a.id} value={a.id}>
    {a.title}
    {a.source === 'remote' ? tr('chat.picker.remote') : ''}
  </option>
);

export function AgentPicker({ agents, agent }: { agents: Agent[]; agent: Agent | null }) {
  const t = useT();
  const selectAgent = useConversation((s) => s.selectAgent);
  const remote = agents.filter((a) => a.source === 'remote');
  const local = agents.filter((a) => a.source !== 'remote');
  return (
    <label className="field inline">
      <span>{t('chat.picker.agent')}</span>
      <select
        value={agent?.id ?? ''}
        disabled={!agents.length}
        data-testid="agent-picker"
        onChange={(e) => {
          const next = agents.find((a) => a.id === Number(e.target.value));
          if (next) selectAgent(next);
        }}
      >
        {/* No agent chosen (the conversation's was deleted): say so rather than show the first one. */}
        {!agent && agents.length ? (
          <option value="" disabled>
            {t('chat.picker.none')}
          </option>
        ) : null}
        {/* Groups only when there is something to tell apart. */}
        {remote.length ? (
          <>
            <optgroup label={t('chat.picker.local')}>{local.map(option)}</optgroup>
            <optgroup label={t('chat.picker.remotes')}>{remote.map(option)}</optgroup>
          </>
        ) : (
          agents.map(option)
        )}
      </select>
      {agent ? <SourceBadge agent={agent} /> : null}
    </label>
  );
}
