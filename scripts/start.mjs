#!/usr/bin/env node
// npm start: Agent Desk as a desktop app. Electron's install script is disabled (package.json
// "allowScripts"), so its binary is fetched here, on first start, with Electron's own installer;
// that is the only download: SQLite (better-sqlite3 on N-API) ships prebuilt in its npm package and
// loads in Electron as it is. Then electron-vite builds main, preload and renderer and launches them.
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { requireSupportedNode } from './node-version.mjs';

requireSupportedNode('npm start');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Overridable so the offline path can be tested without touching the real package.
const electronDir = process.env.AGENT_DESK_ELECTRON_DIR ?? path.join(root, 'node_modules', 'electron');

const OFFLINE_MESSAGE =
  'Agent Desk needs the Electron binary; it is downloaded on first start and this machine seems offline: ' +
  'connect and run npm start again, or run `npm run serve` to use the same app in your browser.';

/** Electron's index.js finds the binary through path.txt, under dist/. */
function electronPresent() {
  try {
    const rel = fs.readFileSync(path.join(electronDir, 'path.txt'), 'utf8').trim();
    return rel !== '' && fs.existsSync(path.join(electronDir, 'dist', rel));
  } catch {
    return false;
  }
}

if (!electronPresent()) {
  process.stdout.write('Agent Desk: downloading the Electron binary (first start only)...\n');
  // The installer's output is held back: offline it is a stack ("TypeError: fetch failed") that says
  // less than our sentence; any other failure keeps its last line as the reason.
  const install = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], { cwd: electronDir, stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  if (install.status !== 0 || !electronPresent()) {
    const said = (install.stderr ?? '').trim();
    const offline = said === '' || /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|socket hang up/i.test(said);
    if (offline) process.stderr.write(`${OFFLINE_MESSAGE}\n`);
    else {
      const reason = said.split('\n').map((line) => line.trim()).filter(Boolean).at(-1);
      process.stderr.write(`Agent Desk could not install the Electron binary (${reason}): run npm start again, or run \`npm run serve\` to use the same app in your browser.\n`);
    }
    process.exit(1);
  }
}

// Overridable so tests can stop here and see what the app would be started with.
const bin = process.env.AGENT_DESK_ELECTRON_VITE ?? path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
const child = spawn(process.execPath, [bin, 'preview', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
