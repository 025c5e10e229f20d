/**
 * better-sqlite3 13 is an N-API addon whose prebuilt binaries ship inside the npm package: the
 * same file loads in Node and in every Electron, so nothing is selected, downloaded or built per
 * runtime. What can still go wrong is a platform without a prebuilt binary or a damaged install;
 * that stops start-up with one sentence rather than a stack trace.
 */

/** A problem that stops start-up, told in one sentence (the CLI prints it without a stack, the desktop app in a dialog). */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

export class SqliteBindingError extends StartupError {
  constructor(
    message: string,
    readonly runtime: string,
  ) {
    super(message);
    this.name = 'SqliteBindingError';
  }
}

/** The one sentence for an addon that cannot load: the runtime, the platform, the reason, and what fixes it. */
export function describeBindingFailure(err: unknown, opts: { fix?: string } = {}): SqliteBindingError {
  const electron = process.versions.electron;
  const runtime = electron ? `Electron ${electron}` : `Node ${process.versions.node}`;
  const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
  const fix = opts.fix ?? 'reinstall the dependencies with `npm ci` (better-sqlite3 ships prebuilt binaries for Linux, macOS and Windows on x64 and arm64)';
  return new SqliteBindingError(`SQLite cannot start in ${runtime} on ${process.platform}-${process.arch}: better-sqlite3 could not be loaded (${reason}); to fix it, ${fix}.`, runtime);
}
