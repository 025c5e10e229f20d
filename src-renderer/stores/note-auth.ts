import { ApiError } from '../api/errors';
import { useAuth } from './auth';

/** Any 401 means the session is gone: flip the app to its signed-out notice. */
export function noteAuth(err: unknown): void {
  if (err instanceof ApiError && err.unauthenticated) useAuth.getState().markSignedOut();
}
