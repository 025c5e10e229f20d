import { ApiError } from '../api/errors';
import type { Worded } from '../api/field-errors';
import './field-errors.css';
import { useT } from '../i18n';

/**
 * The sentence under a field (field-errors.ts words it). Give the field `aria-describedby={id}`
 * and `aria-invalid` so a screen reader reads it with the field.
 */
export function FieldError({ id, text }: { id: string; text: string | null | undefined }) {
  if (!text) return null;
  return (
    <span id={id} className="field-error" data-testid="field-error">
      {text}
    </span>
  );
}

/** The general sentence of a refusal, next to the form's buttons (where the person is looking). */
export function FormError({ worded, error }: { worded: Worded; error?: unknown }) {
  const t = useT();
  if (!worded.general) return null;
  const details = error instanceof ApiError && error.status !== 422 && error.message !== worded.general ? error.message : null;
  return (
    <div className="note note-error form-error" role="alert" data-testid="form-error">
      {worded.general}
      {details ? (
        <details className="small">
          <summary>{t('components.error.details')}</summary>
          {details}
        </details>
      ) : null}
    </div>
  );
}

/** Props that tie a field to its sentence. */
export function describedBy(worded: Worded, field: string, id: string): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  return worded.fields[field] ? { 'aria-invalid': true, 'aria-describedby': id } : {};
}
