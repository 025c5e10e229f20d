import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { limit } from '../../fixtures/until.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const OUT = path.join(ROOT, 'out', 'renderer');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** Builds the browser-mode renderer when out/renderer is missing or older than its sources (the app and the contract it imports). */
export function ensureRendererBuilt(): void {
  const index = path.join(OUT, 'index.html');
  const sources = Math.max(newestMtime(path.join(ROOT, 'src-renderer')), newestMtime(path.join(ROOT, 'src-main', 'platform', 'contract')));
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs >= sources) return;
  const res = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '-c', 'src-renderer/vite.config.ts', '--logLevel', 'warn'], {
    cwd: ROOT,
    // The build that ships, whoever asks: vitest sets NODE_ENV=test, under which Vite bundles
    // React's development build (larger, slower, not what people run).
    env: { ...process.env, NODE_ENV: 'production' },
    encoding: 'utf8',
    timeout: limit(120_000),
  });
  if (res.status !== 0) throw new Error(`The renderer build failed:\n${res.stdout}\n${res.stderr}`);
}
