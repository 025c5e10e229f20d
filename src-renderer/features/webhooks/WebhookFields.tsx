import { useId, type RefObject } from 'react';
import { wordErrors } from '../../api/field-errors';
import { FieldError, describedBy } from '../../components/FieldError';
import { useT } from '../../i18n';
import { EventChoice, type EventsChoice } from './EventChoice';

/** A refusal of a webhook's fields in sentences, each under its field (field-errors.ts). */
export function useWebhookWords(error: unknown) {
  const t = useT();
  return wordErrors(error, { fields: { url: t('webhooks.form.urlField'), description: t('webhooks.form.descriptionField') } });
}

/** What a person writes for a webhook, when connecting one and when changing it: its URL, description and events. */
export function WebhookFields(props: {
  url: string;
  onUrl(v: string): void;
  description: string;
  onDescription(v: string): void;
  events: EventsChoice;
  onEvents(v: EventsChoice): void;
  worded: ReturnType<typeof wordErrors>;
  urlField: RefObject<HTMLInputElement | null>;
  urlPlaceholder?: string;
  /** `webhook` on the form that connects one, `webhook-edit` on a webhook's own. */
  testIds: 'webhook' | 'webhook-edit';
}) {
  const t = useT();
  const uid = useId();
  const { worded } = props;
  return (
    <>
      <div className="webhook-fields">
        <label className="field">
          <span>{t('webhooks.form.url')}</span>
          <input
            ref={props.urlField}
            type="url"
            placeholder={props.urlPlaceholder}
            value={props.url}
            onChange={(e) => props.onUrl(e.target.value)}
            {...describedBy(worded, 'url', `${uid}-url`)}
            data-testid={`${props.testIds}-url`}
          />
          <FieldError id={`${uid}-url`} text={worded.fields.url} />
        </label>
        <label className="field">
          <span>{t('webhooks.form.description')}</span>
          <input
            type="text"
            maxLength={500}
            placeholder={t('webhooks.form.descriptionPlaceholder')}
            value={props.description}
            onChange={(e) => props.onDescription(e.target.value)}
            {...describedBy(worded, 'description', `${uid}-description`)}
            data-testid={`${props.testIds}-description`}
          />
          <FieldError id={`${uid}-description`} text={worded.fields.description} />
        </label>
      </div>
      <EventChoice value={props.events} onChange={props.onEvents} />
    </>
  );
}
