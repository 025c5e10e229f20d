import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../api/helpers.js';
import { childEnv } from '../api/server-process.js';
// @ts-expect-error plain ESM script without types
import { targetsOf } from '../../scripts/dist.mjs';
// @ts-expect-error plain ESM script without types
import { nodeProblem } from '../../scripts/node-version.mjs';
import { limit } from '../fixtures/until.js';

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
    expect(() => targetsOf(['--mac', '--universal'], host)).toThrow(/universal/);
  });

  it('refuses an arch SQLite ships no prebuilt binary for, in one sentence', () => {
    expect(() => targetsOf([], { platform: 'win32', arch: 'ia32' })).toThrow('SQLite has no prebuilt binary for win-ia32: Agent Desk packages for x64 and arm64 only.');
  });

  it('needs Node 22.12+, said plainly with what to do', () => {
    expect(nodeProblem('20.19.0', 'npm run dist')).toBe(
      'npm run dist needs Node 22.12.0 or newer and this is Node 20.19.0: install Node 24 LTS (nodejs.org), or run `npm install --prefix ~/.node24 node@24` and put ~/.node24/node_modules/.bin first on your PATH.',
    );
    expect(nodeProblem('22.11.0')).toMatch(/^Agent Desk needs Node 22\.12\.0 or newer and this is Node 22\.11\.0/);
    expect(nodeProblem('22.12.0')).toBeNull();
    expect(nodeProblem('24.0.0')).toBeNull();
  });
});

describe('npm start and npm run serve on an older Node', () => {
  // The running Node made to report 20.19.0 before the script runs.
  const oldNode = ['--import', `data:text/javascript,Object.defineProperty(process.versions, 'node', { value: '20.19.0' })`];
  for (const [what, script] of [
    ['npm start', 'scripts/start.mjs'],
    ['npm run serve', 'scripts/cli.mjs'],
  ] as const) {
    it(`${what} stops with one sentence saying what to do`, () => {
      const r = spawnSync(process.execPath, [...oldNode, script, 'serve'], { encoding: 'utf8', timeout: limit(60_000), env: childEnv({}) });
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(`${what} needs Node 22.12.0 or newer and this is Node 20.19.0: install Node 24 LTS (nodejs.org), or run \`npm install --prefix ~/.node24 node@24\` and put ~/.node24/node_modules/.bin first on your PATH.`);
      expect(r.stdout).toBe('');
    });
  }
});

describe('npm run dist with stand-ins', () => {
  let work: string;
  beforeAll(() => {
    work = tempDir('agent-desk-dist-');
    for (const name of ['electron-vite', 'electron-builder'])
      fs.writeFileSync(
        path.join(work, `${name}.cjs`),
        `require('fs').appendFileSync(${JSON.stringify(path.join(work, 'calls.jsonl'))}, JSON.stringify({ tool: ${JSON.stringify(name)}, args: process.argv.slice(2) }) + '\\n');\n`,
      );
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('builds, then packages; nothing native is fetched or rebuilt', () => {
    const r = spawnSync(process.execPath, ['scripts/dist.mjs', '--win', '--x64', '--arm64', '--publish', 'never'], {
      encoding: 'utf8',
      timeout: limit(60_000),
      env: childEnv({ AGENT_DESK_ELECTRON_VITE: path.join(work, 'electron-vite.cjs'), AGENT_DESK_ELECTRON_BUILDER: path.join(work, 'electron-builder.cjs') }),
    });
    expect(r.status, r.stderr).toBe(0);
    const calls = fs
      .readFileSync(path.join(work, 'calls.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { tool: string; args: string[] });
    expect(calls).toEqual([
      { tool: 'electron-vite', args: ['build'] },
      { tool: 'electron-builder', args: ['--config', 'electron-builder.yml', '--win', '--x64', '--arm64', '--publish', 'never'] },
    ]);
  });

  it('an unsupported target stops before building', () => {
    const r = spawnSync(process.execPath, ['scripts/dist.mjs', '--linux', '--armv7l'], {
      encoding: 'utf8',
      timeout: limit(60_000),
      env: childEnv({ AGENT_DESK_ELECTRON_VITE: path.join(work, 'electron-vite.cjs'), AGENT_DESK_ELECTRON_BUILDER: path.join(work, 'electron-builder.cjs') }),
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('SQLite has no prebuilt binary for linux-armv7l');
  });
});
