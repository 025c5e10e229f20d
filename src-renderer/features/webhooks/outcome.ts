import type { WebhookDelivery } from '../../../src-main/platform/contract/webhook-deliveries';
import { t } from '../../i18n';

/** Reason phrases of the statuses receivers commonly answer (RFC 9110), to say "500 Internal Server Error". */
const REASONS: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content',
  301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout',
  409: 'Conflict', 410: 'Gone', 413: 'Content Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Content', 429: 'Too Many Requests',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** "500 Internal Server Error", or the bare code when its phrase is not a common one. */
export const statusText = (code: number): string => (REASONS[code] ? `${code} ${REASONS[code]}` : String(code));

type Attempt = Pick<WebhookDelivery, 'status_code' | 'error'>;

/** Why a request got no answer, in words: the sender's reason is a socket error or "Timed out after N ms". */
function unreachable(error: string | null): string {
  const e = error ?? '';
  const timeout = /Timed out after (\d+) ms/.exec(e);
  if (timeout) return t('webhooks.outcome.timeout', { seconds: Math.round(Number(timeout[1]) / 1000) });
  if (/ECONNREFUSED/.test(e)) return t('webhooks.outcome.refused');
  if (/ENOTFOUND|EAI_AGAIN/.test(e)) return t('webhooks.outcome.notFound');
  if (/ECONNRESET|socket hang up/i.test(e)) return t('webhooks.outcome.reset');
  if (/certificate|SSL|TLS/i.test(e)) return t('webhooks.outcome.certificate');
  if (/^Refused:/.test(e)) return t('webhooks.outcome.notSent', { reason: e.replace(/^Refused:\s*/, '') });
  return e ? t('webhooks.outcome.unreachableWhy', { reason: e }) : t('webhooks.outcome.unreachable');
}

/** One attempt's outcome as a sentence, and whether it worked (UX.md: a success names what happened, a failure is an error). */
export function outcomeOf(a: Attempt): { ok: boolean; text: string } {
  const code = a.status_code;
  if (code === null) return { ok: false, text: unreachable(a.error) };
  if (code >= 200 && code < 300) return { ok: true, text: t('webhooks.outcome.sent', { status: statusText(code) }) };
  if (code >= 300 && code < 400) return { ok: false, text: t('webhooks.outcome.redirect', { status: statusText(code) }) };
  return { ok: false, text: t('webhooks.outcome.answered', { status: statusText(code) }) };
}

/** An event's name as a person reads it ("Answer ready"), never the wire's `execution.succeeded`. */
export function eventWords(type: string): string {
  if (type === 'execution.succeeded') return t('webhooks.events.answerReady');
  if (type === 'execution.failed') return t('webhooks.events.answerFailed');
  if (type === 'webhook.test') return t('webhooks.events.test');
  return t('webhooks.events.other');
}
