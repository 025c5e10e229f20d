import { ApiError } from '../api/errors';
import { wordErrors } from '../api/field-errors';
import { useT } from '../i18n';

/** An error as a person should read it; a route the platform lacks reads "not available", not a failure. */
export function ErrorNote({ error, what }: { error: unknown; what?: string }) {
  const t = useT();
  if (!error) return null;
  if (error instanceof ApiError && error.notAvailable) {
    return (
      <div className="note note-muted" role="status" data-testid="not-available">
        <strong>{what ? t('components.error.notAvailableOf', { what }) : t('components.error.notAvailable')}</strong>
        <span> {t('components.error.notOffered')}</span>
      </div>
    );
  }
  // In plain words (field-errors.ts): forms put field sentences under their fields; here, all of them.
  const message = wordErrors(error).general ?? '';
  return (
    <div className="note note-error" role="alert">
      {what ? <strong>{what}: </strong> : null}
      {message}
    </div>
  );
}
