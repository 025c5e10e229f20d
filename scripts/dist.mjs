#!/usr/bin/env node
// npm run dist -- --linux | --mac | --win [--x64 | --arm64 | --ia32 | --armv7l] [other electron-builder flags]
// Builds main, preload and renderer, puts better-sqlite3 built for the packaged Electron and each
// target's platform and arch at out/native/<os>-<arch>/ (electron-builder.yml copies it to the
// package's resources/native), then runs electron-builder. node_modules is never rebuilt in place
// (electron-builder.yml: npmRebuild false), so `npm run serve` and the tests keep working.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureElectronBinding, electronVersion, BindingUnavailableError } from './electron-binding.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OSES = { '--linux': 'linux', '--mac': 'mac', '--win': 'win', '-l': 'linux', '-m': 'mac', '-w': 'win' };
const NODE_PLATFORM = { linux: 'linux', mac: 'darwin', win: 'win32' };
const HOST_OS = { linux: 'linux', darwin: 'mac', win32: 'win' };
const ARCHES = ['x64', 'arm64', 'ia32', 'armv7l'];
// electron-builder's arch names -> Node's (what prebuild-install and node-gyp take).
const NODE_ARCH = { x64: 'x64', arm64: 'arm64', ia32: 'ia32', armv7l: 'arm' };

/** Which <os, arch> pairs the given electron-builder arguments build. */
export function targetsOf(args, host = { platform: process.platform, arch: process.arch }) {
  const oses = [...new Set(args.filter((a) => a in OSES).map((a) => OSES[a]))];
  const arches = [...new Set(args.filter((a) => ARCHES.includes(a.replace(/^--/, ''))).map((a) => a.replace(/^--/, '')))];
  if (args.includes('--universal')) throw new Error('A universal macOS build needs one SQLite binding per arch merged into one: build --x64 and --arm64 separately.');
  const hostArch = Object.entries(NODE_ARCH).find(([, n]) => n === host.arch)?.[0] ?? host.arch;
  const out = [];
  for (const os of oses.length ? oses : [HOST_OS[host.platform]]) for (const arch of arches.length ? arches : [hostArch]) out.push({ os, arch });
  return out;
}

/** electron-builder 26 runs on Node 20.19+ here because nothing calls its rebuild step (@electron/rebuild 4 needs Node 22.12). */
export function checkNode(version = process.versions.node) {
  const [maj, min] = version.split('.').map(Number);
  if (maj < 20 || (maj === 20 && min < 19)) throw new Error(`npm run dist needs Node 20.19 or newer (this is ${version}).`);
}

function step(title, cmd, args) {
  process.stdout.write(`\n== ${title}\n`);
  const r = spawnSync(process.execPath, [cmd, ...args], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function main() {
  const args = process.argv.slice(2);
  try {
    checkNode();
    const config = fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8');
    if (!/^npmRebuild:\s*false\s*$/m.test(config)) throw new Error('electron-builder.yml must keep `npmRebuild: false`: the binding is placed by this script, node_modules is never rebuilt in place.');
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  const targets = targetsOf(args);
  const electron = electronVersion();

  // The tools are overridable so tests can run this script with stand-ins that record their arguments.
  const vite = process.env.AGENT_DESK_ELECTRON_VITE ?? path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  step('Building main, preload and renderer', vite, ['build']);

  process.stdout.write(`\n== SQLite for Electron ${electron}: ${targets.map((t) => `${t.os}-${t.arch}`).join(', ')}\n`);
  const staged = process.env.AGENT_DESK_DIST_STAGE ?? path.join(root, 'out', 'native');
  fs.rmSync(staged, { recursive: true, force: true });
  for (const t of targets) {
    let file;
    try {
      ({ file } = ensureElectronBinding({ electron, platform: NODE_PLATFORM[t.os], arch: NODE_ARCH[t.arch] }));
    } catch (err) {
      process.stderr.write(`\n${err instanceof BindingUnavailableError ? err.message.replace('connect and run npm start again, or run `npm run serve` to use the same app in your browser', 'connect and run npm run dist again') : err.stack}\n`);
      process.exit(1);
    }
    const dest = path.join(staged, `${t.os}-${t.arch}`, 'better_sqlite3.node');
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(file, dest);
  }

  const builder = process.env.AGENT_DESK_ELECTRON_BUILDER ?? path.join(root, 'node_modules', 'electron-builder', 'cli.js');
  step('Packaging (electron-builder)', builder, ['--config', 'electron-builder.yml', ...args]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
