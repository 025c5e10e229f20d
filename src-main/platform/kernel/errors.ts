/**
 * Typed errors with stable codes. Services throw these; the HTTP layer maps each to one
 * envelope (CONTRACT.md "Errors"), and the bridge reuses the same mapping through app.fetch.
 */
export class PlatformError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

export class NotFoundError extends PlatformError {
  constructor(message: string) {
    super(404, message, 'not_found');
  }
}

export class ForbiddenError extends PlatformError {
  constructor(message: string) {
    super(403, message, 'forbidden');
  }
}

export class ConflictError extends PlatformError {
  constructor(message: string) {
    super(409, message, 'conflict');
  }
}

export class PayloadTooLargeError extends PlatformError {
  constructor(message: string) {
    super(413, message, 'payload_too_large');
  }
}

/** 422 with Laravel's shape: the first message, and every message by field. */
export class ValidationError extends PlatformError {
  constructor(readonly errors: Record<string, string[]>) {
    const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
    const more = Object.values(errors).reduce((n, l) => n + l.length, 0) - 1;
    super(422, more > 0 ? `${first} (and ${more} more error${more > 1 ? 's' : ''})` : first, 'validation_failed');
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
}
