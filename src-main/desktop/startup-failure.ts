import fs from 'node:fs';
import path from 'node:path';
import { StartFailure } from './platform-process.js';

/**
 * A start that cannot go on: the reason in a dialog (the person may have no terminal), in the
 * log file and on stderr. The platform's one-sentence start-up errors (StartupError, a database
 * from a newer version) are the whole story; any other error keeps its stack in the log, never
 * in the dialog.
 */
export function reportStartupFailure(err: unknown, io: { showErrorBox(title: string, content: string): void; logFile: string; ready: boolean }): string {
  const message = err instanceof Error ? err.message : String(err);
  const logged = err instanceof Error && !(err instanceof StartFailure && err.startup) ? (err.stack ?? message) : message;
  const line = `${new Date().toISOString()} Agent Desk could not start: ${logged}\n`;
  try {
    fs.mkdirSync(path.dirname(io.logFile), { recursive: true });
    fs.appendFileSync(io.logFile, line);
  } catch {}
  process.stderr.write(line);
  if (io.ready) io.showErrorBox('Agent Desk could not start', message);
  return message;
}
