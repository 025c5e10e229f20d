import fs from 'node:fs';
import { limit } from '../fixtures/until.js';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../api/helpers.js';

const require = createRequire(import.meta.url);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A stand-in electron package whose installer fails, as it does offline. */
function fakeElectronPackage(install: string): string {
  const dir = tempDir('agent-desk-electron-');
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'install.js'), install);
  return dir;
}

const runStart = (electronDir: string) =>
  spawnSync(process.execPath, ['scripts/start.mjs'], { env: { ...process.env, AGENT_DESK_ELECTRON_DIR: electronDir }, encoding: 'utf8', timeout: limit(20_000) });

describe('npm start without the Electron binary', () => {
  it('runs the installer and, when it fails (offline), explains and exits 1', () => {
    const dir = fakeElectronPackage("console.error('RequestError: getaddrinfo ENOTFOUND github.com'); process.exit(1);");
    const r = runStart(dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('downloading the Electron binary');
    expect(r.stderr).toContain('ENOTFOUND github.com'); // the installer's own words are kept
    expect(r.stderr).toContain(
      'Agent Desk needs the Electron binary; it is downloaded on first start and this machine seems offline: connect and run npm start again, or run `npm run serve` to use the same app in your browser',
    );
  });

  it('also fails clearly when the installer "succeeds" without leaving a binary', () => {
    const dir = fakeElectronPackage("require('fs').writeFileSync(require('path').join(__dirname, 'path.txt'), 'electron'); process.exit(0);");
    const r = runStart(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Agent Desk needs the Electron binary');
  });
});

describe('packaging configuration', () => {
  it('electron-builder.yml is valid for electron-builder and covers Linux, macOS and Windows', async () => {
    const yaml = require('js-yaml') as { load(s: string): any };
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config');
    const { DebugLogger } = require('builder-util');
    const config = yaml.load(fs.readFileSync('electron-builder.yml', 'utf8'));
    await expect(validateConfiguration(config, new DebugLogger())).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, bogus: 1 }, new DebugLogger())).rejects.toThrow(/unknown property 'bogus'/);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    // node_modules is never rebuilt in place; the Electron build of SQLite comes in staged per os and arch.
    expect(config.npmRebuild).toBe(false);
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['node_modules/better-sqlite3/**', 'node_modules/node-llama-cpp/**']));
    expect(config.extraResources[0]).toMatchObject({ from: 'resources', to: 'resources' });
    expect(config.extraResources[1]).toMatchObject({ from: 'out/native/${os}-${arch}', to: 'native' });
    expect(config.files).toContain('out/**');
    expect(config.files).toContain('!out/native/**');
  });

  it('electron.vite.config.ts builds the shell, a CommonJS preload and the renderer', async () => {
    const { default: cfg } = (await import('../../electron.vite.config.js')) as { default: any };
    const root = path.resolve('.');
    expect(cfg.main.build.rolldownOptions.input.index).toBe(path.join(root, 'src-main/desktop/main.ts'));
    expect(cfg.main.build.rolldownOptions.input.worker).toBe(path.join(root, 'src-main/platform/ingest/worker.ts'));
    expect(cfg.main.build.rolldownOptions.external).toEqual(['better-sqlite3', 'node-llama-cpp']);
    expect(cfg.preload.build.rolldownOptions.input.index).toBe(path.join(root, 'src-preload/index.ts'));
    expect(cfg.preload.build.rolldownOptions.output).toMatchObject({ format: 'cjs', entryFileNames: '[name].cjs' });
    expect(cfg.renderer.root).toBe(path.join(root, 'src-renderer'));
    expect(cfg.renderer.build.outDir).toBe(path.join(root, 'out/renderer'));
    expect(cfg.renderer.plugins.flat().some((p: any) => /react/.test(p?.name ?? ''))).toBe(true);
  });
});
