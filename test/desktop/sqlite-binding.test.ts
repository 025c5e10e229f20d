import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../api/helpers.js';
import { SqliteBindingError } from '../../src-main/platform/db/sqlite-binding.js';
import { checkSqliteBinding, openDatabase } from '../../src-main/platform/db/connection.js';

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
    // Its install script is not allowed to run, so npm never adds its implicit `node-gyp rebuild` (which would
    // download Node's headers or compile SQLite, depending on the user's npm configuration).
    expect(fs.existsSync(path.join(pkgDir, 'build'))).toBe(false);
  });

  it('no installed package may run a build at install: each one with a binding.gyp or an install script is refused in allowScripts', () => {
    const root = path.resolve(pkgDir, '..', '..');
    const allow = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean> }).allowScripts;
    const building: string[] = [];
    const visit = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
        const pkg = path.join(dir, entry.name);
        if (entry.name.startsWith('@')) { visit(pkg); continue; }
        const manifest = path.join(pkg, 'package.json');
        if (!fs.existsSync(manifest)) continue;
        const meta = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name: string; scripts?: Record<string, string> };
        const scripts = meta.scripts ?? {};
        if (fs.existsSync(path.join(pkg, 'binding.gyp')) || scripts.install || scripts.preinstall || scripts.postinstall) building.push(meta.name);
        if (fs.existsSync(path.join(pkg, 'node_modules'))) visit(path.join(pkg, 'node_modules'));
      }
    };
    visit(path.join(root, 'node_modules'));
    expect(building).toContain('better-sqlite3');
    expect(building.filter((name) => allow[name] !== false)).toEqual([]);
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
