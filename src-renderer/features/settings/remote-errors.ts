/** Execution error codes that mean "look at Settings → Remote". */
export const REMOTE_ERROR_CODES = ['remote_unauthorized', 'remote_unreachable', 'remote_timeout', 'remote_error', 'remote_unconfigured', 'remote_key_unreadable'] as const;
export const isRemoteErrorCode = (code: string | undefined | null): boolean => !!code && (REMOTE_ERROR_CODES as readonly string[]).includes(code);
