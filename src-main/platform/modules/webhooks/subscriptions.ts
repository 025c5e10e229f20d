import { WEBHOOK_EVENTS } from '../../contract/webhooks.js';
import { readStoredList } from '../../kernel/stored-json.js';

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/**
 * A webhook's chosen events as stored: unique, in the contract's order; none chosen (omitted or
 * empty) is stored as `[]`, which means every event.
 */
export function storedEvents(chosen: readonly string[] | undefined): string {
  const set = new Set(chosen ?? []);
  return JSON.stringify(WEBHOOK_EVENTS.filter((e) => set.has(e)));
}

const parse = (stored: string): string[] => readStoredList<string>(stored, { column: 'webhooks.events' }, (x) => typeof x === 'string');

/** The events a webhook receives, spelled out (a webhook that chose none receives all). */
export function subscribedEvents(stored: string): WebhookEventType[] {
  const chosen = new Set(parse(stored));
  const list = WEBHOOK_EVENTS.filter((e) => chosen.has(e));
  return list.length ? list : [...WEBHOOK_EVENTS];
}

/** Whether a webhook with these stored events receives an event of `type`. */
export function receives(stored: string, type: string): boolean {
  const chosen = parse(stored);
  return chosen.length === 0 || chosen.includes(type);
}
