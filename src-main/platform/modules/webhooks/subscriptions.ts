import { WEBHOOK_EVENTS } from '../../contract/webhooks.js';
import { readStoredList } from '../../kernel/stored-json.js';

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

const known = (e: string): e is WebhookEventType => (WEBHOOK_EVENTS as readonly string[]).includes(e);

/**
 * A webhook's events as stored: each name once, as the client sent them. Names the platform does
 * not know (hosted clients send their own, e.g. `AGENT_RESPONSE_CREATED`) are kept and ignored;
 * none known (omitted, empty, or only unknown names) means every event, as on the hosted platform.
 */
export function storedEvents(chosen: readonly string[] | undefined): string {
  return JSON.stringify([...new Set(chosen ?? [])]);
}

const parse = (stored: string): string[] => readStoredList<string>(stored, { column: 'webhooks.events' }, (x) => typeof x === 'string');

/** The events a webhook receives, spelled out in the contract's order (every event when it chose no known one). */
export function subscribedEvents(stored: string): WebhookEventType[] {
  const chosen = new Set(parse(stored).filter(known));
  const list = WEBHOOK_EVENTS.filter((e) => chosen.has(e));
  return list.length ? list : [...WEBHOOK_EVENTS];
}

/** Whether a webhook with these stored events receives an event of `type`. */
export function receives(stored: string, type: string): boolean {
  return (subscribedEvents(stored) as string[]).includes(type);
}
