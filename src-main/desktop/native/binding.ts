import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

/**
 * Where the desktop app finds better-sqlite3 built for its Electron (node_modules/better-sqlite3
 * is the Node build, for serve and the tests). scripts/electron-binding.mjs puts it there:
 *   dev:      <app>/native/better-sqlite3-<version>/electron-<electron>-<platform>-<arch>/better_sqlite3.node
 *   packaged: <resources>/native/better_sqlite3.node (npm run dist copies the one for its target)
 * `npm start` also passes the file it got as AGENT_DESK_SQLITE_BINDING, which wins in development.
 */
export interface BindingPlace {
  isPackaged: boolean;
  appPath: string;
  resourcesPath: string;
  electron: string;
  platform?: string;
  arch?: string;
  sqliteVersion?: string;
  env?: Record<string, string | undefined>;
}

export function installedSqliteVersion(): string {
  const req = createRequire(import.meta.url);
  return (JSON.parse(fs.readFileSync(req.resolve('better-sqlite3/package.json'), 'utf8')) as { version: string }).version;
}

export function electronBindingPath(p: BindingPlace): string {
  if (p.isPackaged) return path.join(p.resourcesPath, 'native', 'better_sqlite3.node');
  const fromStart = p.env?.AGENT_DESK_SQLITE_BINDING;
  if (fromStart) return fromStart;
  const key = `electron-${p.electron}-${p.platform ?? process.platform}-${p.arch ?? process.arch}`;
  return path.join(p.appPath, 'native', `better-sqlite3-${p.sqliteVersion ?? installedSqliteVersion()}`, key, 'better_sqlite3.node');
}

/** The command that gets a working binding, for the one-sentence failure. */
export function bindingFix(isPackaged: boolean): string {
  return isPackaged
    ? 'reinstall Agent Desk (its package lacks SQLite built for its Electron)'
    : 'run `npm start` again while connected (it fetches better-sqlite3 built for this Electron), or `node scripts/electron-binding.mjs`';
}
