import type { Agent } from '../../../src-main/platform/contract/agents';
import { useT } from '../../i18n';

/** Marks an agent of the connected remote platform; local agents carry no mark. */
export function SourceBadge({ agent }: { agent: Pick<Agent, 'source'> }) {
  const t = useT();
  if (agent.source !== 'remote') return null;
  return (
    <span className="badge badge-remote" title={t('agents.remoteView.badgeTitle')} data-testid="remote-badge">
      {t('agents.remoteView.badge')}
    </span>
  );
}
