import { useId } from 'react';
import { useT } from '../../i18n';
import type { Webhook } from '../../../src-main/platform/contract/webhooks';

/** Which answers call the webhook, as a person picks them: when one is ready, when one fails. */
export interface EventsChoice {
  succeeded: boolean;
  failed: boolean;
}

/** A webhook's events as the two choices (a webhook that chose none gets both). */
export const choiceOf = (events: Webhook['events']): EventsChoice => ({ succeeded: events.includes('execution.succeeded'), failed: events.includes('execution.failed') });

/** The events as the platform takes them: both chosen is "every event" (an empty list). */
export function chosenEvents(c: EventsChoice): string[] {
  if (c.succeeded && c.failed) return [];
  return [...(c.succeeded ? ['execution.succeeded'] : []), ...(c.failed ? ['execution.failed'] : [])];
}

export function EventChoice({ value, onChange }: { value: EventsChoice; onChange(next: EventsChoice): void }) {
  const t = useT();
  const uid = useId();
  const none = !value.succeeded && !value.failed;
  return (
    <fieldset className="webhook-events" aria-describedby={none ? `${uid}-none` : undefined}>
      <legend>{t('webhooks.events.legend')}</legend>
      <label className="row">
        <input type="checkbox" checked={value.succeeded} onChange={(e) => onChange({ ...value, succeeded: e.target.checked })} />
        {t('webhooks.events.succeeded')}
      </label>
      <label className="row">
        <input type="checkbox" checked={value.failed} onChange={(e) => onChange({ ...value, failed: e.target.checked })} />
        {t('webhooks.events.failed')}
      </label>
      {none ? (
        <span id={`${uid}-none`} className="field-error">
          {t('webhooks.events.pickOne')}
        </span>
      ) : null}
    </fieldset>
  );
}
