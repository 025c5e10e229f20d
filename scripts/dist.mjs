#!/usr/bin/env node
// npm run dist -- --linux | --mac | --win [--x64 | --arm64 | --ia32 | --armv7l] [other electron-builder flags]
// Builds main, preload and renderer, then runs electron-builder with electron-builder.yml. Nothing
// native is fetched or rebuilt: better-sqlite3 13 is N-API and ships prebuilt binaries for each
// os and arch inside its npm package (the package unpacks them from the ASAR), and node_modules is
// never rebuilt in place (npmRebuild: false), so `npm run serve` and the tests keep working.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nodeProblem } from './node-version.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OSES = { '--linux': 'linux', '--mac': 'mac', '--win': 'win', '-l': 'linux', '-m': 'mac', '-w': 'win' };
const HOST_OS = { linux: 'linux', darwin: 'mac', win32: 'win' };
const ARCHES = ['x64', 'arm64', 'ia32', 'armv7l'];
// Node's arch names -> electron-builder's.
const BUILDER_ARCH = { x64: 'x64', arm64: 'arm64', ia32: 'ia32', arm: 'armv7l' };
// The prebuilt SQLite binaries better-sqlite3 ships (prebuilds/<os>-<arch>.node).
const SQLITE_PREBUILT = new Set(['linux-x64', 'linux-arm64', 'mac-x64', 'mac-arm64', 'win-x64', 'win-arm64']);

/** Which <os, arch> pairs the given electron-builder arguments build. */
export function targetsOf(args, host = { platform: process.platform, arch: process.arch }) {
  const oses = [...new Set(args.filter((a) => a in OSES).map((a) => OSES[a]))];
  const arches = [...new Set(args.filter((a) => ARCHES.includes(a.replace(/^--/, ''))).map((a) => a.replace(/^--/, '')))];
  if (args.includes('--universal')) throw new Error('A universal macOS build is not supported: build --x64 and --arm64 separately.');
  const out = [];
  for (const os of oses.length ? oses : [HOST_OS[host.platform]]) for (const arch of arches.length ? arches : [BUILDER_ARCH[host.arch] ?? host.arch]) out.push({ os, arch });
  for (const t of out) if (!SQLITE_PREBUILT.has(`${t.os}-${t.arch}`)) throw new Error(`SQLite has no prebuilt binary for ${t.os}-${t.arch}: Agent Desk packages for x64 and arm64 only.`);
  return out;
}

function step(title, cmd, args) {
  process.stdout.write(`\n== ${title}\n`);
  const r = spawnSync(process.execPath, [cmd, ...args], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function main() {
  const args = process.argv.slice(2);
  try {
    const problem = nodeProblem(process.versions.node, 'npm run dist');
    if (problem) throw new Error(problem);
    const config = fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8');
    if (!/^npmRebuild:\s*false\s*$/m.test(config)) throw new Error('electron-builder.yml must keep `npmRebuild: false`: node_modules is never rebuilt in place.');
    targetsOf(args);
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  // The tools are overridable so tests can run this script with stand-ins that record their arguments.
  const vite = process.env.AGENT_DESK_ELECTRON_VITE ?? path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  step('Building main, preload and renderer', vite, ['build']);
  const builder = process.env.AGENT_DESK_ELECTRON_BUILDER ?? path.join(root, 'node_modules', 'electron-builder', 'cli.js');
  step('Packaging (electron-builder)', builder, ['--config', 'electron-builder.yml', ...args]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
