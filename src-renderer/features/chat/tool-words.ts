import type { ToolStep } from '../../../src-main/platform/contract/tools';

/** What the web tools' steps name as their server, and a client's own tools (the /v1 gateways). */
const WEB_SERVER = 'the web';
const CLIENT_SERVER = 'client';

/**
 * A call the platform refused without running it: a tool the agent does not have (no server), or
 * a web tool while this answer's web search is off. Null for any other step.
 */
export function refusal(step: Pick<ToolStep, 'status' | 'server_id' | 'server'>): { label: string; why: string } | null {
  if (step.status !== 'denied' || step.server_id !== null || step.server === CLIENT_SERVER) return null;
  if (step.server === WEB_SERVER) return { label: 'Not allowed in this answer', why: 'Web search is off for this answer, so nothing was run. Turn it on under Tools to let the agent search.' };
  return { label: 'Not available to this agent', why: 'The model asked for a tool this agent does not have, so nothing was run.' };
}

/** Where the call ran, in words: "on files", "on the web"; null when there is nothing to say. */
export function whereOf(step: Pick<ToolStep, 'server_id' | 'server'>): string | null {
  if (step.server_id === null) return step.server === WEB_SERVER ? 'on the web' : step.server === CLIENT_SERVER ? 'in your app' : null;
  return `on ${step.server ?? 'a removed server'}`;
}
