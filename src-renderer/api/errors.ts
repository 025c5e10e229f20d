import { generalSentence, sentenceOf } from './field-errors';
import { t } from '../i18n';

/** A non-2xx answer from the platform, with its `message` (and `errors` for a 422). */
/** The code of a refusal the app made and worded itself before sending (its sentence is shown as it is). */
export const WORDED_HERE = 'worded_here';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The route does not exist on this platform build (yet): show "not available", not a crash. */
  get notAvailable(): boolean {
    return (this.status === 404 && this.message === 'Not found.') || this.status === 405 || this.status === 501;
  }

  get unauthenticated(): boolean {
    return this.status === 401;
  }
}

export function errorFrom(status: number, text: string): ApiError {
  let message = t('errors.http', { status });
  let errors: Record<string, string[]> | undefined;
  let code: string | undefined;
  try {
    const body = JSON.parse(text) as { message?: unknown; errors?: unknown; code?: unknown; error?: unknown };
    if (typeof body.message === 'string' && body.message) message = body.message;
    if (body.errors && typeof body.errors === 'object') errors = body.errors as Record<string, string[]>;
    if (typeof body.code === 'string') code = body.code;
  } catch {
    if (status === 404) message = 'Not found.';
  }
  return new ApiError(status, message, errors, code);
}

/**
 * A failure as one sentence a person reads (field-errors.ts words it): the platform's refusals
 * and known provider or parser wording in plain words; other errors as their own message.
 */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return sentenceOf(err);
  const raw = err instanceof Error ? err.message : String(err);
  return /Could not reach|No answer within|answered \d{3}|must be a file of type|^Cron|Failed to fetch/.test(raw) ? generalSentence(err) : raw;
}

export function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}
