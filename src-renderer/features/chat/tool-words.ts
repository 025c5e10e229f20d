import type { ToolStep } from '../../../src-main/platform/contract/tools';
import { t } from '../../i18n';

/** What the web tools' steps name as their server, and a client's own tools (the /v1 gateways). */
const WEB_SERVER = 'the web';
const CLIENT_SERVER = 'client';

/**
 * A call the platform refused without running it: a tool the agent does not have (no server), or
 * a web tool while this answer's web search is off. Null for any other step.
 */
export function refusal(step: Pick<ToolStep, 'status' | 'server_id' | 'server'>): { label: string; why: string } | null {
  if (step.status !== 'denied' || step.server_id !== null || step.server === CLIENT_SERVER) return null;
  if (step.server === WEB_SERVER) return { label: t('chat.refusal.webLabel'), why: t('chat.refusal.webWhy') };
  return { label: t('chat.refusal.toolLabel'), why: t('chat.refusal.toolWhy') };
}

/** Where the call ran, in words: "on files", "on the web"; null when there is nothing to say. */
export function whereOf(step: Pick<ToolStep, 'server_id' | 'server'>): string | null {
  if (step.server_id === null) return step.server === WEB_SERVER ? t('chat.refusal.onWeb') : step.server === CLIENT_SERVER ? t('chat.refusal.inApp') : null;
  return t('chat.refusal.on', { server: step.server ?? t('chat.refusal.removedServer') });
}
