import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../api/helpers.js';
import { startServer, childEnv } from '../api/server-process.js';
import { limit } from '../fixtures/until.js';
import { electronBindingPath } from '../../src-main/desktop/native/binding.js';

/**
 * `npm start` (scripts/start.mjs) with stand-ins: a fake electron package (binary "present"),
 * fake prebuild-install and node-gyp that record how they were asked and leave a binary (a copy
 * of the Node build) or fail, and a fake electron-vite that records what the app gets.
 */
const require = createRequire(import.meta.url);
const sqliteDir = path.dirname(require.resolve('better-sqlite3/package.json'));
const sqliteVersion = (require('better-sqlite3/package.json') as { version: string }).version;
const nodeBuild = path.join(sqliteDir, 'build', 'Release', 'better_sqlite3.node');
const sha = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');

let work: string;
beforeAll(() => {
  work = tempDir('agent-desk-start-');
  const tool = (name: string) =>
    fs.writeFileSync(
      path.join(work, `${name}.cjs`),
      `const fs = require('fs'), path = require('path');
fs.appendFileSync(${JSON.stringify(path.join(work, 'calls.jsonl'))}, JSON.stringify({ tool: ${JSON.stringify(name)}, args: process.argv.slice(2), cwd: process.cwd(), nodedir: process.env.npm_config_nodedir ?? null }) + '\\n');
if ((process.env.FAIL || '').split(',').includes(${JSON.stringify(name)})) { console.error('${name}: getaddrinfo ENOTFOUND'); process.exit(1); }
fs.mkdirSync(path.join(process.cwd(), 'build', 'Release'), { recursive: true });
fs.copyFileSync(${JSON.stringify(nodeBuild)}, path.join(process.cwd(), 'build', 'Release', 'better_sqlite3.node'));
`,
    );
  tool('prebuild-install');
  tool('node-gyp');
  fs.writeFileSync(
    path.join(work, 'electron-vite.cjs'),
    `require('fs').writeFileSync(${JSON.stringify(path.join(work, 'launched.json'))}, JSON.stringify({ args: process.argv.slice(2), binding: process.env.AGENT_DESK_SQLITE_BINDING }));`,
  );
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function fakeElectronPackage(version: string): string {
  const dir = fs.mkdtempSync(path.join(work, 'electron-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'electron', version }));
  fs.writeFileSync(path.join(dir, 'path.txt'), 'electron');
  fs.mkdirSync(path.join(dir, 'dist'));
  fs.writeFileSync(path.join(dir, 'dist', 'electron'), '');
  return dir;
}

function npmStart(opts: { electron: string; base: string; fail?: string }) {
  fs.rmSync(path.join(work, 'calls.jsonl'), { force: true });
  fs.rmSync(path.join(work, 'launched.json'), { force: true });
  const r = spawnSync(process.execPath, ['scripts/start.mjs'], {
    encoding: 'utf8',
    timeout: limit(60_000),
    env: {
      ...childEnv(),
      AGENT_DESK_ELECTRON_DIR: opts.electron,
      AGENT_DESK_NATIVE_BASE: opts.base,
      AGENT_DESK_PREBUILD_INSTALL: path.join(work, 'prebuild-install.cjs'),
      AGENT_DESK_NODE_GYP: path.join(work, 'node-gyp.cjs'),
      AGENT_DESK_ELECTRON_VITE: path.join(work, 'electron-vite.cjs'),
      // What npm exports from a user's ~/.npmrc: it must not steer a build for Electron.
      npm_config_nodedir: '/usr',
      FAIL: opts.fail ?? '',
    },
  });
  const callsFile = path.join(work, 'calls.jsonl');
  const calls = fs.existsSync(callsFile)
    ? fs
        .readFileSync(callsFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { tool: string; args: string[]; cwd: string; nodedir: string | null })
    : [];
  const launchedFile = path.join(work, 'launched.json');
  const launched = fs.existsSync(launchedFile) ? (JSON.parse(fs.readFileSync(launchedFile, 'utf8')) as { args: string[]; binding: string }) : null;
  return { ...r, calls, launched };
}

describe('first npm start gets better-sqlite3 for Electron, beside the Node build', () => {
  const before = sha(nodeBuild);
  const key = `electron-38.8.6-${process.platform}-${process.arch}`;

  it('asks prebuild-install for runtime electron, the installed version, this platform and arch; stores it where the app looks; a second start does not ask again', () => {
    const base = fs.mkdtempSync(path.join(work, 'base-'));
    const electron = fakeElectronPackage('38.8.6');
    const first = npmStart({ electron, base });
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain(`getting SQLite (better-sqlite3 ${sqliteVersion}) built for Electron 38.8.6 on ${process.platform}-${process.arch}`);
    expect(first.calls).toHaveLength(1);
    expect(first.calls[0].tool).toBe('prebuild-install');
    expect(first.calls[0].args).toEqual(['--runtime', 'electron', '--target', '38.8.6', '--platform', process.platform, '--arch', process.arch, '--verbose']);
    // It ran on a staged copy of the package, never in node_modules.
    expect(first.calls[0].cwd.startsWith(path.join(base, 'native'))).toBe(true);
    expect(fs.existsSync(path.join(first.calls[0].cwd, 'binding.gyp'))).toBe(false); // staging removed afterwards
    expect(first.calls[0].nodedir).toBeNull();

    const stored = path.join(base, 'native', `better-sqlite3-${sqliteVersion}`, key, 'better_sqlite3.node');
    expect(sha(stored)).toBe(before);
    // The desktop app's own lookup finds the same file, with or without npm start's hint.
    expect(electronBindingPath({ isPackaged: false, appPath: base, resourcesPath: '/r', electron: '38.8.6', env: {} })).toBe(stored);
    expect(first.launched).toEqual({ args: ['preview'], binding: stored });

    const second = npmStart({ electron, base });
    expect(second.status).toBe(0);
    expect(second.calls).toEqual([]);
    expect(second.stdout).not.toContain('getting SQLite');
    expect(second.launched?.binding).toBe(stored);

    // An Electron upgrade fetches a new one, in its own folder.
    const upgraded = npmStart({ electron: fakeElectronPackage('39.1.0'), base });
    expect(upgraded.status).toBe(0);
    expect(upgraded.calls.map((c) => c.args[3])).toEqual(['39.1.0']);
    expect(upgraded.launched?.binding).toBe(path.join(base, 'native', `better-sqlite3-${sqliteVersion}`, `electron-39.1.0-${process.platform}-${process.arch}`, 'better_sqlite3.node'));
    expect(fs.existsSync(stored)).toBe(true);
  });

  it("without a prebuilt binary, builds from source with node-gyp against Electron's headers", () => {
    const base = fs.mkdtempSync(path.join(work, 'base-'));
    const r = npmStart({ electron: fakeElectronPackage('38.8.6'), base, fail: 'prebuild-install' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.calls.map((c) => c.tool)).toEqual(['prebuild-install', 'node-gyp']);
    const gyp = r.calls[1];
    expect(gyp.args.slice(0, 6)).toEqual(['rebuild', '--release', '--runtime=electron', '--target=38.8.6', `--arch=${process.arch}`, '--dist-url=https://electronjs.org/headers']);
    expect(gyp.nodedir).toBeNull(); // the user's npm nodedir would build against Node's headers
    expect(r.stdout).toContain("building from source against Electron's headers");
    expect(fs.existsSync(path.join(base, 'native', `better-sqlite3-${sqliteVersion}`, key, 'better_sqlite3.node'))).toBe(true);
  });

  it('offline (both fail): one message naming what is missing and the two ways on, and the app is not launched', () => {
    const base = fs.mkdtempSync(path.join(work, 'base-'));
    const r = npmStart({ electron: fakeElectronPackage('38.8.6'), base, fail: 'prebuild-install,node-gyp' });
    expect(r.status).toBe(1);
    expect(r.launched).toBeNull();
    expect(r.stderr).toContain(
      `Agent Desk needs SQLite (better-sqlite3 ${sqliteVersion}) built for Electron 38.8.6 on ${process.platform}-${process.arch}, and the prebuilt download and the build from source both failed (this machine seems offline, or cannot compile): connect and run npm start again, or run \`npm run serve\` to use the same app in your browser.`,
    );
    expect(fs.readdirSync(path.join(base, 'native')).filter((f) => f.startsWith('.staging'))).toEqual([]);
  });

  it('after all those starts node_modules still holds the Node build: npm run serve starts and answers', async () => {
    expect(sha(nodeBuild)).toBe(before);
    const dataDir = fs.mkdtempSync(path.join(work, 'data-'));
    const server = await startServer({ dataDir, runner: 'node', env: { AGENT_DESK_API_KEY: 'k-after-start' } });
    try {
      const res = await fetch(`${server.url}/api/app`, { headers: { authorization: 'Bearer k-after-start' } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { electron: unknown }).electron).toBeNull();
    } finally {
      server.kill();
      await server.exited;
    }
  }, limit(90_000)); // a cold server start
});
