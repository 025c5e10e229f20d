import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../api/helpers.js';
import { checkSqliteBinding, describeBindingFailure, sqliteOptions, useSqliteBinding, SqliteBindingError, SQLITE_BINDING_ENV, SQLITE_BINDING_ABI_ENV } from '../../src-main/platform/db/sqlite-binding.js';
import { openDatabase } from '../../src-main/platform/db/connection.js';

const require = createRequire(import.meta.url);
const nodeBuild = path.join(path.dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');

const dirs: string[] = [];
function fakeElectron(version = '38.8.6') {
  Object.defineProperty(process.versions, 'electron', { value: version, configurable: true, enumerable: true });
}
afterEach(() => {
  delete (process.versions as Record<string, string | undefined>).electron;
  delete process.env[SQLITE_BINDING_ENV];
  delete process.env[SQLITE_BINDING_ABI_ENV];
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const dir = () => {
  const d = tempDir('agent-desk-binding-');
  dirs.push(d);
  return d;
};

describe('the SQLite binding per runtime', () => {
  it('under Node: no nativeBinding (node_modules/better-sqlite3 is the Node build), even if a binding is configured for another ABI', () => {
    expect(sqliteOptions({ readonly: true })).toEqual({ readonly: true });
    process.env[SQLITE_BINDING_ENV] = '/somewhere/better_sqlite3.node';
    process.env[SQLITE_BINDING_ABI_ENV] = '139';
    expect(sqliteOptions()).toEqual({});
  });

  it('under Electron: nativeBinding is the configured Electron build, and the platform really opens through it', () => {
    const d = dir();
    // A copy in a folder of its own, so the load cannot be better-sqlite3's default path.
    const binding = path.join(d, 'electron-38.8.6-linux-x64', 'better_sqlite3.node');
    fs.mkdirSync(path.dirname(binding));
    fs.copyFileSync(nodeBuild, binding);
    fakeElectron();
    useSqliteBinding(binding);
    expect(sqliteOptions({ readonly: true })).toEqual({ readonly: true, nativeBinding: binding });
    const spy = vi.spyOn(require('module'), '_load');
    try {
      const db = openDatabase(path.join(d, 'data'));
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      db.close();
      expect(spy.mock.calls.some((c) => c[0] === binding)).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });

  it('a worker thread whose process.versions lacks electron still picks the binding made for its ABI', () => {
    useSqliteBinding('/x/better_sqlite3.node');
    expect(process.env[SQLITE_BINDING_ABI_ENV]).toBe(process.versions.modules);
    expect(sqliteOptions()).toEqual({ nativeBinding: '/x/better_sqlite3.node' });
  });

  it('a missing Electron binding stops start-up with one sentence: runtime, ABI found, ABI needed, the fix', () => {
    fakeElectron();
    const missing = path.join(dir(), 'nope', 'better_sqlite3.node');
    useSqliteBinding(missing);
    let err: unknown;
    try {
      openDatabase(path.join(dir(), 'data'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SqliteBindingError);
    const msg = (err as Error).message;
    expect(msg).toBe(
      `SQLite cannot start in Electron 38.8.6, which needs ABI ${process.versions.modules} (NODE_MODULE_VERSION ${process.versions.modules}): the better-sqlite3 binding ${missing} is missing (ABI found: none); to fix it, run \`npm start\` again while connected (it fetches better-sqlite3 built for this Electron), or \`node scripts/electron-binding.mjs\`.`,
    );
    expect(msg.split('\n')).toHaveLength(1);
  });

  it('Electron with no binding configured at all says so', () => {
    fakeElectron();
    expect(() => checkSqliteBinding()).toThrow(/SQLite cannot start in Electron 38\.8\.6, .*no better-sqlite3 binding for Electron 38\.8\.6 was given/);
  });

  it('a file that is not a binary names the file and what the loader said', () => {
    fakeElectron();
    const bad = path.join(dir(), 'better_sqlite3.node');
    fs.writeFileSync(bad, 'not an ELF');
    useSqliteBinding(bad);
    expect(() => checkSqliteBinding()).toThrow(new RegExp(`the better-sqlite3 binding ${bad.replace(/[.\\/]/g, '\\$&')} cannot be loaded \\(.+; ABI found: unknown\\); to fix it, run \`npm start\``));
  });

  it("a build for another ABI (Node's own loader message) names both ABIs; under Node the fix is npm rebuild", () => {
    const loaderText =
      "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 139. This version of Node.js requires\nNODE_MODULE_VERSION 115. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).";
    const err = describeBindingFailure(new Error(loaderText.replace(/\n/g, ' ')));
    expect(err.abiFound).toBe('139');
    expect(err.abiNeeded).toBe(process.versions.modules);
    expect(err.runtime).toBe(`Node ${process.versions.node}`);
    expect(err.message).toMatch(/^SQLite cannot start in Node [\d.]+, which needs ABI \d+ \(NODE_MODULE_VERSION \d+\): the better-sqlite3 binding .*better_sqlite3\.node was built for ABI 139 \(NODE_MODULE_VERSION 139\); to fix it, run `npm rebuild better-sqlite3`\.$/);
  });

  it('a packaged app can name its own fix', () => {
    fakeElectron();
    expect(() => checkSqliteBinding({ fix: 'reinstall Agent Desk' })).toThrow(/to fix it, reinstall Agent Desk\.$/);
  });
});
