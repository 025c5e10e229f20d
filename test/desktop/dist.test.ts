import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../api/helpers.js';
import { childEnv } from '../api/server-process.js';
// @ts-expect-error plain ESM script without types
import { targetsOf, checkNode } from '../../scripts/dist.mjs';

const require = createRequire(import.meta.url);
const nodeBuild = path.join(path.dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
const electronVersion = (require('electron/package.json') as { version: string }).version;

describe('npm run dist: targets and requirements', () => {
  it('reads os and arch from electron-builder flags, the host by default', () => {
    const host = { platform: 'linux', arch: 'x64' };
    expect(targetsOf(['--linux'], host)).toEqual([{ os: 'linux', arch: 'x64' }]);
    expect(targetsOf(['--mac', '--arm64', '--x64'], host)).toEqual([
      { os: 'mac', arch: 'arm64' },
      { os: 'mac', arch: 'x64' },
    ]);
    expect(targetsOf(['--win', '--linux', '--publish', 'never'], { platform: 'darwin', arch: 'arm64' })).toEqual([
      { os: 'win', arch: 'arm64' },
      { os: 'linux', arch: 'arm64' },
    ]);
    expect(targetsOf([], { platform: 'win32', arch: 'ia32' })).toEqual([{ os: 'win', arch: 'ia32' }]);
    expect(() => targetsOf(['--mac', '--universal'], host)).toThrow(/universal/);
  });

  it('needs Node 20.19+, said plainly', () => {
    expect(() => checkNode('20.18.1')).toThrow('npm run dist needs Node 20.19 or newer (this is 20.18.1).');
    expect(() => checkNode('20.19.0')).not.toThrow();
    expect(() => checkNode('22.12.0')).not.toThrow();
  });
});

describe('npm run dist with stand-ins', () => {
  let work: string;
  beforeAll(() => {
    work = tempDir('agent-desk-dist-');
    const recorder = (name: string, body = '') =>
      fs.writeFileSync(
        path.join(work, `${name}.cjs`),
        `require('fs').appendFileSync(${JSON.stringify(path.join(work, 'calls.jsonl'))}, JSON.stringify({ tool: ${JSON.stringify(name)}, args: process.argv.slice(2), cwd: process.cwd() }) + '\\n');\n${body}`,
      );
    recorder('electron-vite');
    recorder('electron-builder');
    recorder(
      'prebuild-install',
      `const fs = require('fs'), path = require('path'); fs.mkdirSync(path.join(process.cwd(), 'build', 'Release'), { recursive: true }); fs.copyFileSync(${JSON.stringify(nodeBuild)}, path.join(process.cwd(), 'build', 'Release', 'better_sqlite3.node'));`,
    );
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('builds, stages the Electron binding per os-arch where electron-builder.yml takes it, then packages; node_modules untouched', () => {
    const stage = path.join(work, 'stage');
    const before = fs.readFileSync(nodeBuild);
    const r = spawnSync(process.execPath, ['scripts/dist.mjs', '--win', '--x64', '--arm64', '--publish', 'never'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: childEnv({
        AGENT_DESK_NATIVE_BASE: work,
        AGENT_DESK_DIST_STAGE: stage,
        AGENT_DESK_PREBUILD_INSTALL: path.join(work, 'prebuild-install.cjs'),
        AGENT_DESK_ELECTRON_VITE: path.join(work, 'electron-vite.cjs'),
        AGENT_DESK_ELECTRON_BUILDER: path.join(work, 'electron-builder.cjs'),
      }),
    });
    expect(r.status, r.stderr).toBe(0);
    const calls = fs
      .readFileSync(path.join(work, 'calls.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { tool: string; args: string[] });
    expect(calls.map((c) => c.tool)).toEqual(['electron-vite', 'prebuild-install', 'prebuild-install', 'electron-builder']);
    expect(calls[0].args).toEqual(['build']);
    expect(calls[1].args).toEqual(['--runtime', 'electron', '--target', electronVersion, '--platform', 'win32', '--arch', 'x64', '--verbose']);
    expect(calls[2].args).toEqual(['--runtime', 'electron', '--target', electronVersion, '--platform', 'win32', '--arch', 'arm64', '--verbose']);
    expect(calls[3].args).toEqual(['--config', 'electron-builder.yml', '--win', '--x64', '--arm64', '--publish', 'never']);
    expect(fs.readdirSync(stage).sort()).toEqual(['win-arm64', 'win-x64']);
    expect(fs.existsSync(path.join(stage, 'win-x64', 'better_sqlite3.node'))).toBe(true);
    expect(fs.readFileSync(nodeBuild).equals(before)).toBe(true);
  });
});
