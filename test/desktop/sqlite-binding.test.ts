import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../api/helpers.js';
import { checkSqliteBinding, SqliteBindingError } from '../../src-main/platform/db/sqlite-binding.js';
import { openDatabase } from '../../src-main/platform/db/connection.js';

const require = createRequire(import.meta.url);
const pkgDir = path.dirname(require.resolve('better-sqlite3/package.json'));

const dirs: string[] = [];
afterEach(() => {
  delete (process.versions as Record<string, string | undefined>).electron;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const dir = () => {
  const d = tempDir('agent-desk-binding-');
  dirs.push(d);
  return d;
};

describe('SQLite on N-API: one binary for Node and every Electron', () => {
  it('the package ships a prebuilt N-API binary for this platform, and nothing is built at install', () => {
    const libc = process.platform === 'linux' && !fs.readFileSync('/proc/self/maps', 'latin1').includes('ld-linux') ? 'linuxmusl' : process.platform;
    const binary = path.join(pkgDir, 'prebuilds', `${libc}-${process.arch}.node`);
    expect(fs.existsSync(binary)).toBe(true);
    // An N-API addon registers through napi_register_module_v1: not tied to one NODE_MODULE_VERSION (ABI).
    expect(fs.readFileSync(binary).includes('napi_register_module_v1')).toBe(true);
    // npm's implicit node-gyp run finds the prebuilt binary and compiles nothing (it may leave an empty build folder).
    expect(fs.existsSync(path.join(pkgDir, 'build', 'Release', 'better_sqlite3.node'))).toBe(false);
  });

  it('under Electron the same addon opens the platform database (no per-runtime binding to select)', () => {
    Object.defineProperty(process.versions, 'electron', { value: '45.5.0', configurable: true, enumerable: true });
    const db = openDatabase(dir());
    expect(db.prepare('SELECT 1 AS one').get()).toEqual({ one: 1 });
    db.close();
  });

  it('an addon that cannot load stops start-up with one sentence: runtime, platform, what the loader said, the fix', () => {
    Object.defineProperty(process.versions, 'electron', { value: '45.5.0', configurable: true, enumerable: true });
    let err: unknown;
    try {
      checkSqliteBinding({
        open: () => {
          throw new Error('/app/node_modules/better-sqlite3/prebuilds/linux-x64.node: invalid ELF header\n    at Module._extensions..node');
        },
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SqliteBindingError);
    const message = (err as Error).message;
    expect(message).toBe(
      `SQLite cannot start in Electron 45.5.0 on ${process.platform}-${process.arch}: better-sqlite3 could not be loaded (/app/node_modules/better-sqlite3/prebuilds/linux-x64.node: invalid ELF header); ` +
        'to fix it, reinstall the dependencies with `npm ci` (better-sqlite3 ships prebuilt binaries for Linux, macOS and Windows on x64 and arm64).',
    );
    expect(message).not.toMatch(/\n/);
  });

  it('a packaged app names its own fix', () => {
    expect(() => checkSqliteBinding({ fix: 'reinstall Agent Desk', open: () => { throw new Error('boom'); } })).toThrow(/could not be loaded \(boom\); to fix it, reinstall Agent Desk\.$/);
  });

  it('a working addon passes the check', () => {
    expect(() => checkSqliteBinding()).not.toThrow();
  });
});
