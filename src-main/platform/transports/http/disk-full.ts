import { PlatformError } from '../../kernel/errors.js';

/** Codes that mean "no room left": a full disk, a quota reached, SQLite unable to grow its file. */
const FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** 507 Insufficient Storage: not the client's fault, not a bug either, and the user can act on it. */
export class DiskFullError extends PlatformError {
  constructor() {
    super(507, 'The disk is full: Agent Desk could not save this. Free some space on the disk that holds its data folder and try again.', 'disk_full');
  }
}

/** The 507 for an error caused by a full disk (looking through `cause` chains), or null. */
export function diskFullError(err: unknown): DiskFullError | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && FULL.has(code)) return new DiskFullError();
  }
  return null;
}
