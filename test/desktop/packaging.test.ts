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
    // What Electron's installer prints offline on Node 24: a stack under "TypeError: fetch failed".
    const dir = fakeElectronPackage("console.error('TypeError: fetch failed\\n    at node:internal/deps/undici/undici:13502:13\\n  [cause]: Error: getaddrinfo ENOTFOUND github.com'); process.exit(1);");
    const r = runStart(dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('downloading the Electron binary');
    // One sentence, nothing stray before it.
    expect(r.stderr).toBe(
      'Agent Desk needs the Electron binary; it is downloaded on first start and this machine seems offline: connect and run npm start again, or run `npm run serve` to use the same app in your browser.\n',
    );
  });

  it('an installer failure that is not the network keeps its reason', () => {
    const dir = fakeElectronPackage("console.error('Error: EACCES: permission denied, mkdir \\'/x/dist\\''); process.exit(1);");
    const r = runStart(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("Agent Desk could not install the Electron binary (Error: EACCES: permission denied, mkdir '/x/dist'): run npm start again, or run `npm run serve` to use the same app in your browser.\n");
  });

  it('also fails clearly when the installer "succeeds" without leaving a binary', () => {
    const dir = fakeElectronPackage("require('fs').writeFileSync(require('path').join(__dirname, 'path.txt'), 'electron'); process.exit(0);");
    const r = runStart(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Agent Desk needs the Electron binary');
  });
});

describe('packaging configuration', () => {
  const yaml = require('js-yaml') as { load(s: string): any };
  const config = yaml.load(fs.readFileSync('electron-builder.yml', 'utf8'));

  it('electron-builder.yml is valid for electron-builder and covers Linux, macOS and Windows', async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config');
    const { DebugLogger } = require('builder-util');
    await expect(validateConfiguration(config, new DebugLogger())).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, bogus: 1 }, new DebugLogger())).rejects.toThrow(/unknown property 'bogus'/);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    // node_modules is never rebuilt in place: better-sqlite3's N-API binaries are used as shipped.
    expect(config.npmRebuild).toBe(false);
    expect(config.asar).toBe(true);
    expect(config.extraResources).toEqual([{ from: 'resources', to: 'resources', filter: ['**/*'] }]);
    expect(config.files).toContain('out/**');
  });

  it("the packaged binary's fuses, flipped by electron-builder's own code: no RunAsNode, cookies encrypted, only the integrity-checked ASAR", async () => {
    // A stand-in for the Electron binary: Electron's fuse sentinel, wire version 1 and eight fuses in their default state.
    const { SENTINEL, FuseState } = require('@electron/fuses/dist/constants');
    const { getCurrentFuseWire, FuseV1Options } = require('@electron/fuses');
    const dir = tempDir('agent-desk-fuses-');
    dirs.push(dir);
    const binary = path.join(dir, 'agent-desk');
    const defaults = [1, 1, 1, 1, 0, 0, 0, 1].map((on) => (on ? FuseState.ENABLE : FuseState.DISABLE));
    fs.writeFileSync(binary, Buffer.concat([Buffer.from('\x7fELF padding '), Buffer.from(SENTINEL), Buffer.from([1, defaults.length, ...defaults]), Buffer.from(' more bytes')]));
    // electron-builder's own mapping from the yml to a fuse config, then the library it flips fuses with.
    const { PlatformPackager } = require('app-builder-lib');
    const fuseConfig = await PlatformPackager.prototype.generateFuseConfig.call({}, config.electronFuses);
    await require('@electron/fuses').flipFuses(binary, fuseConfig);
    const wire = await getCurrentFuseWire(binary);
    const state = (o: number) => wire[o];
    expect(state(FuseV1Options.RunAsNode)).toBe(FuseState.DISABLE);
    expect(state(FuseV1Options.EnableCookieEncryption)).toBe(FuseState.ENABLE);
    expect(state(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe(FuseState.DISABLE);
    expect(state(FuseV1Options.EnableNodeCliInspectArguments)).toBe(FuseState.DISABLE);
    expect(state(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe(FuseState.ENABLE);
    expect(state(FuseV1Options.OnlyLoadAppFromAsar)).toBe(FuseState.ENABLE);
    expect(state(FuseV1Options.GrantFileProtocolExtraPrivileges)).toBe(FuseState.DISABLE);
  });

  it("every native binary a production dependency ships is unpacked from the ASAR by electron-builder's own matcher", () => {
    const { getFileMatchers } = require('app-builder-lib/out/fileMatcher');
    const root = path.resolve('.');
    const [matcher] = getFileMatchers(config, 'asarUnpack', path.join(root, 'dist-app'), { macroExpander: (s: string) => s, customBuildOptions: {}, globalOutDir: path.join(root, 'release'), defaultSrc: root });
    const unpacked = matcher.createFilter() as (file: string, stat: fs.Stats) => boolean;
    // The production dependency tree, as electron-builder collects it.
    const ls = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: limit(60_000) });
    const dirsOfProd = [...new Set(ls.stdout.split('\n').filter((l) => l.includes(`${path.sep}node_modules${path.sep}`)))];
    const natives: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory() && e.name !== 'node_modules') walk(p);
        else if (e.isFile() && /\.(node|so|dylib|dll)$/.test(e.name)) natives.push(p);
      }
    };
    for (const d of dirsOfProd) if (fs.existsSync(d)) walk(d);
    const sqlite = natives.filter((f) => f.includes(`better-sqlite3${path.sep}prebuilds`));
    expect(sqlite.map((f) => path.basename(f)).sort()).toEqual(expect.arrayContaining(['darwin-arm64.node', 'darwin-x64.node', 'linux-arm64.node', 'linux-x64.node', 'win32-arm64.node', 'win32-x64.node']));
    expect(natives.some((f) => /sqlite-vec-/.test(f))).toBe(true);
    const packed = natives.filter((f) => !unpacked(f, fs.statSync(f)));
    expect(packed.map((f) => path.relative(root, f))).toEqual([]);
    // And the filter is selective: plain JavaScript stays in the archive.
    const js = path.join(root, 'node_modules', 'hono', 'package.json');
    expect(unpacked(js, fs.statSync(js))).toBe(false);
  });

  it('electron.vite.config.ts builds the shell, a CommonJS preload and the renderer', async () => {
    const { default: cfg } = (await import('../../electron.vite.config.js')) as { default: any };
    const root = path.resolve('.');
    expect(cfg.main.build.rolldownOptions.input.index).toBe(path.join(root, 'src-main/desktop/main.ts'));
    expect(cfg.main.build.rolldownOptions.input.worker).toBe(path.join(root, 'src-main/platform/ingest/worker.ts'));
    expect(cfg.main.build.rolldownOptions.external).toEqual(expect.arrayContaining(['better-sqlite3', 'node-llama-cpp']));
    expect(cfg.preload.build.rolldownOptions.input.index).toBe(path.join(root, 'src-preload/index.ts'));
    expect(cfg.preload.build.rolldownOptions.output).toMatchObject({ format: 'cjs', entryFileNames: '[name].cjs' });
    expect(cfg.renderer.root).toBe(path.join(root, 'src-renderer'));
    expect(cfg.renderer.build.outDir).toBe(path.join(root, 'out/renderer'));
    expect(cfg.renderer.plugins.flat().some((p: any) => /react/.test(p?.name ?? ''))).toBe(true);
  });
});
