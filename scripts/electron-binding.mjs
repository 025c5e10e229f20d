#!/usr/bin/env node
// better-sqlite3 built for Electron, kept beside the Node build instead of replacing it:
//   native/better-sqlite3-<version>/electron-<electron version>-<platform>-<arch>/better_sqlite3.node
// node_modules/better-sqlite3 stays the Node build (npm run serve, the CLI, the tests); the desktop
// app passes this file as better-sqlite3's `nativeBinding`. Got with better-sqlite3's own
// prebuild-install (runtime electron), else built from source with node-gyp against Electron's
// headers. Run directly: `node scripts/electron-binding.mjs [--platform P] [--arch A] [--force]`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ELECTRON_HEADERS_URL = 'https://electronjs.org/headers';
const require = createRequire(import.meta.url);

/** The installed Electron's version (the package, not its binary: the binary may not be downloaded yet). */
export function electronVersion(electronDir = process.env.AGENT_DESK_ELECTRON_DIR ?? path.join(root, 'node_modules', 'electron')) {
  return JSON.parse(fs.readFileSync(path.join(electronDir, 'package.json'), 'utf8')).version;
}

export function sqlitePackageDir() {
  return path.dirname(require.resolve('better-sqlite3/package.json', { paths: [root] }));
}

export function sqliteVersion() {
  return JSON.parse(fs.readFileSync(path.join(sqlitePackageDir(), 'package.json'), 'utf8')).version;
}

/** Where the binding for one Electron, platform and arch lives (src-main/desktop/native/binding.ts looks in the same place). */
export function bindingFile({ base = root, sqlite = sqliteVersion(), electron, platform = process.platform, arch = process.arch }) {
  return path.join(base, 'native', `better-sqlite3-${sqlite}`, `electron-${electron}-${platform}-${arch}`, 'better_sqlite3.node');
}

/** npm passes the user's npm config as npm_config_* (e.g. nodedir=/usr): it must not steer a build for Electron. */
function cleanEnv(env) {
  const out = { ...env };
  for (const k of Object.keys(out)) if (/^npm_config_(nodedir|target|runtime|disturl|dist_url|arch|platform|build_from_source|devdir)$/i.test(k)) delete out[k];
  return out;
}

/** A JS entry run with this Node; tests point these at stand-ins that record their arguments. */
function tool(envName, resolveDefault) {
  return process.env[envName] || resolveDefault();
}

function run(script, args, cwd, log) {
  log(`  $ ${path.basename(script)} ${args.join(' ')}`);
  const r = spawnSync(process.execPath, [script, ...args], { cwd, stdio: ['ignore', 'inherit', 'inherit'], env: cleanEnv(process.env) });
  return r.status === 0;
}

/** A copy of the better-sqlite3 package without its build, so nothing in node_modules is touched. */
function stage(into) {
  const src = sqlitePackageDir();
  fs.cpSync(src, into, { recursive: true, filter: (p) => !/[\\/](build|node_modules)$/.test(p.slice(src.length)) });
}

export class BindingUnavailableError extends Error {}

/**
 * Returns the binding for `electron` on `platform`/`arch`, fetching it when it is not there yet.
 * Tries the prebuilt binary first, then (same platform only) a build from source.
 */
export function ensureElectronBinding({ electron = electronVersion(), platform = process.platform, arch = process.arch, base = process.env.AGENT_DESK_NATIVE_BASE || root, force = false, log = (s) => process.stdout.write(`${s}\n`) } = {}) {
  const file = bindingFile({ base, electron, platform, arch });
  if (!force && fs.existsSync(file) && fs.statSync(file).size > 0) return { file, fetched: false };
  const sqlite = sqliteVersion();
  log(`Agent Desk: getting SQLite (better-sqlite3 ${sqlite}) built for Electron ${electron} on ${platform}-${arch} (first start, or a new Electron)...`);
  fs.mkdirSync(path.join(base, 'native'), { recursive: true });
  const work = fs.mkdtempSync(path.join(base, 'native', '.staging-'));
  try {
    stage(work);
    const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');
    const prebuild = tool('AGENT_DESK_PREBUILD_INSTALL', () => require.resolve('prebuild-install/bin.js', { paths: [sqlitePackageDir()] }));
    log('  downloading the prebuilt binary (prebuild-install)...');
    let ok = run(prebuild, ['--runtime', 'electron', '--target', electron, '--platform', platform, '--arch', arch, '--verbose'], work, log) && fs.existsSync(built);
    let tried = 'the prebuilt download failed';
    if (!ok && platform === process.platform) {
      log(`  no prebuilt binary could be fetched: building from source against Electron's headers (node-gyp; needs Python and a C++ compiler, a few minutes)...`);
      const gyp = tool('AGENT_DESK_NODE_GYP', () => require.resolve('node-gyp/bin/node-gyp.js', { paths: [root] }));
      const devdir = path.join(os.homedir(), '.electron-gyp');
      ok = run(gyp, ['rebuild', '--release', '--runtime=electron', `--target=${electron}`, `--arch=${arch}`, `--dist-url=${ELECTRON_HEADERS_URL}`, `--devdir=${devdir}`], work, log) && fs.existsSync(built);
      tried = 'the prebuilt download and the build from source both failed';
    } else if (!ok) {
      tried = `the prebuilt download failed (a build from source for ${platform} can only run on ${platform})`;
    }
    if (!ok) {
      throw new BindingUnavailableError(
        `Agent Desk needs SQLite (better-sqlite3 ${sqlite}) built for Electron ${electron} on ${platform}-${arch}, and ${tried} (this machine seems offline, or cannot compile): ` +
          'connect and run npm start again, or run `npm run serve` to use the same app in your browser.',
      );
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(built, `${file}.part`);
    fs.renameSync(`${file}.part`, file);
    log(`  SQLite for Electron ${electron} is ready: ${path.relative(base, file)}`);
    return { file, fetched: true };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { platform: { type: 'string' }, arch: { type: 'string' }, electron: { type: 'string' }, force: { type: 'boolean' } } });
  try {
    const { file } = ensureElectronBinding({ platform: values.platform, arch: values.arch, electron: values.electron, force: values.force });
    process.stdout.write(`${file}\n`);
  } catch (err) {
    process.stderr.write(`\n${err instanceof BindingUnavailableError ? err.message : err.stack}\n`);
    process.exit(1);
  }
}
