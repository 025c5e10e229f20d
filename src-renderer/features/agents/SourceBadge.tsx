import type { Agent } from '../../../src-main/platform/contract/agents';

/** Marks an agent of the connected remote platform; local agents carry no mark. */
export function SourceBadge({ agent }: { agent: Pick<Agent, 'source'> }) {
  if (agent.source !== 'remote') return null;
  return (
    <span className="badge badge-remote" title="Runs on the connected remote platform (Settings → Remote)" data-testid="remote-badge">
      remote
    </span>
  );
}
