import Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

/**
 * better-sqlite3 is a native addon built for one ABI. `node_modules/better-sqlite3` holds the
 * build for Node (serve, CLI, tests); Electron's embedded Node has another ABI, so the desktop
 * app passes the path of the build made for its Electron (see scripts/electron-binding.mjs) in
 * this variable, which worker threads inherit too.
 */
export const SQLITE_BINDING_ENV = 'AGENT_DESK_SQLITE_BINDING';
/** The ABI that binding was made for: a worker thread whose `process.versions` lacks `electron` still picks it. */
export const SQLITE_BINDING_ABI_ENV = 'AGENT_DESK_SQLITE_BINDING_ABI';

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
    readonly abiFound: string | null,
    readonly abiNeeded: string,
  ) {
    super(message);
    this.name = 'SqliteBindingError';
  }
}

const isElectron = () => typeof process.versions.electron === 'string';

/** The binding this process must load: the Electron build under Electron, else better-sqlite3's default. */
export function sqliteBindingPath(env: Record<string, string | undefined> = process.env): string | null {
  const sameAbi = !!env[SQLITE_BINDING_ABI_ENV] && env[SQLITE_BINDING_ABI_ENV] === process.versions.modules;
  if (!isElectron() && !sameAbi) return null;
  return env[SQLITE_BINDING_ENV] || null;
}

/** What the desktop app sets before the platform starts (inherited by worker threads). */
export function useSqliteBinding(file: string, env: Record<string, string | undefined> = process.env): void {
  env[SQLITE_BINDING_ENV] = file;
  env[SQLITE_BINDING_ABI_ENV] = process.versions.modules;
}

/** Options for every `new Database(...)` of the platform: adds `nativeBinding` under Electron only. */
export function sqliteOptions(opts: Database.Options = {}): Database.Options {
  const binding = sqliteBindingPath();
  return binding ? { ...opts, nativeBinding: binding } : opts;
}

/** Where better-sqlite3's own (Node) build is, for messages. */
function defaultBindingPath(): string {
  try {
    const pkg = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
    return path.join(path.dirname(pkg), 'build', 'Release', 'better_sqlite3.node');
  } catch {
    return 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
  }
}

/**
 * Turns a failure to load the addon into one sentence: the runtime, the ABI found, the ABI
 * needed and the command that fixes it. `fix` overrides the command (a packaged app says "reinstall").
 */
export function describeBindingFailure(err: unknown, opts: { binding?: string | null; fix?: string } = {}): SqliteBindingError {
  const electron = process.versions.electron;
  const runtime = electron ? `Electron ${electron}` : `Node ${process.versions.node}`;
  const needed = process.versions.modules;
  const binding = opts.binding ?? (electron ? null : defaultBindingPath());
  const text = err instanceof Error ? err.message : String(err);
  const found = /NODE_MODULE_VERSION (\d+)\. This version/.exec(text)?.[1] ?? null;
  const fix =
    opts.fix ??
    (electron
      ? 'run `npm start` again while connected (it fetches better-sqlite3 built for this Electron), or `node scripts/electron-binding.mjs`'
      : 'run `npm rebuild better-sqlite3`');
  let what: string;
  if (!binding) what = `no better-sqlite3 binding for ${runtime} was given (${SQLITE_BINDING_ENV} is unset)`;
  else if (!fs.existsSync(binding)) what = `the better-sqlite3 binding ${binding} is missing (ABI found: none)`;
  else if (found) what = `the better-sqlite3 binding ${binding} was built for ABI ${found} (NODE_MODULE_VERSION ${found})`;
  else what = `the better-sqlite3 binding ${binding} cannot be loaded (${text.split('\n')[0]}; ABI found: unknown)`;
  return new SqliteBindingError(`SQLite cannot start in ${runtime}, which needs ABI ${needed} (NODE_MODULE_VERSION ${needed}): ${what}; to fix it, ${fix}.`, runtime, found, needed);
}

/** Opens an in-memory database once, so a binding that cannot load stops start-up with a sentence, not a stack trace. */
export function checkSqliteBinding(opts: { fix?: string } = {}): void {
  const binding = sqliteBindingPath();
  if (isElectron() && !binding) throw describeBindingFailure(new Error('unset'), { binding: null, fix: opts.fix });
  try {
    new Database(':memory:', sqliteOptions()).close();
  } catch (err) {
    throw describeBindingFailure(err, { binding, fix: opts.fix });
  }
}
