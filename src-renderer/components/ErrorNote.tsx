import { ApiError } from '../api/errors';

/** An error as a person should read it; a route the platform lacks reads "not available", not a failure. */
export function ErrorNote({ error, what }: { error: unknown; what?: string }) {
  if (!error) return null;
  if (error instanceof ApiError && error.notAvailable) {
    return (
      <div className="note note-muted" role="status" data-testid="not-available">
        <strong>{what ? `${what}: not available` : 'Not available'}</strong>
        <span> This version of the platform does not offer this yet.</span>
      </div>
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  const fields = error instanceof ApiError && error.errors ? Object.values(error.errors).flat().filter((m) => m !== message) : [];
  return (
    <div className="note note-error" role="alert">
      {what ? <strong>{what}: </strong> : null}
      {message}
      {fields.length ? (
        <ul>
          {fields.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
