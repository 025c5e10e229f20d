import pino from 'pino';

/** One logger for the platform; stack traces go here, never into responses. */
export type Logger = pino.Logger;

export function createLogger(level = process.env.AGENT_DESK_LOG_LEVEL ?? (process.env.VITEST ? 'silent' : 'info')): Logger {
  return pino({ level, base: undefined }, pino.destination(2));
}
