#!/usr/bin/env node
// The headless server's bundle (out/serve): what `npm run serve` and the other CLI scripts run, so
// no TypeScript is transpiled at start. esbuild (already installed with vite and tsx) builds it in
// about a second; scripts/cli.mjs rebuilds it first whenever a source is newer than the bundle.
//
// Layout, the same as the desktop build's main bundle (electron.vite.config.ts): the entries plus
// the worker entries `worker`, `page-reader`, `archive-import`, `checkpoint`, `embedder` and `rss-watchdog`, side by side, so that
// kernel/worker-entry.ts resolves a worker as `<name>.js` next to the main bundle. The folder sits two
// levels below the project root, as src-main/platform does, so paths taken from import.meta.url
// (the seed catalog in resources/, package.json) resolve the same from the sources and the bundle.
//
// `node scripts/build-serve.mjs [--force]` builds it (when stale, or always with --force).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * Where the bundle goes. AGENT_DESK_SERVE_OUT moves it (tests build beside it, so they never replace
 * the one in use): two levels below the project too, for the paths above.
 */
export const SERVE_OUT = (() => {
  const out = path.resolve(ROOT, process.env.AGENT_DESK_SERVE_OUT || 'out/serve');
  const rel = path.relative(ROOT, out).split(path.sep);
  if (rel.length !== 2 || rel[0] === '..') throw new Error(`AGENT_DESK_SERVE_OUT must name a folder two levels below ${ROOT} (like out/serve): ${out}`);
  return out;
})();

/** The command-line entries: their npm dependencies are bundled in, which halves the start's CPU time. */
export const ENTRIES = {
  main: 'src-main/platform/cli/main.ts',
  backup: 'src-main/platform/cli/backup.ts',
  'mcp-stdio': 'src-main/platform/cli/mcp-stdio.ts',
};

/**
 * Worker entries, named as in electron.vite.config.ts (a test keeps the two lists equal). Their
 * packages stay external as in the desktop build: document readers load files of their own.
 */
export const WORKERS = {
  worker: 'src-main/platform/ingest/worker.ts',
  'page-reader': 'src-main/platform/ingest/pages/page-reader.ts',
  'archive-import': 'src-main/platform/modules/archive/import-worker.ts',
  checkpoint: 'src-main/platform/db/checkpoint-thread.ts',
  embedder: 'src-main/platform/ingest/embed/builtin-process.ts',
  'rss-watchdog': 'src-main/platform/ingest/watchdog-thread.ts',
};

/** Plain files the code starts by URL next to itself (none now: the embedder's thread is evaluated from its source). */
const COPIED = [];

/**
 * Never bundled: native addons, packages that find files of their own at run time (binaries,
 * models, worker scripts), and what is only resolved to a path.
 */
export const EXTERNAL = [
  'better-sqlite3',
  'node-llama-cpp',
  'sqlite-vec',
  'sqlite-vec-*',
  'tesseract.js',
  '@tesseract.js-data/*',
  '@energetic-ai/*',
  '@tensorflow/*',
  'gpt-tokenizer',
  'esbuild',
  'electron',
];

/** Besides the sources the last build read: a change of dependencies or of this script rebuilds too. */
const ALSO_WATCHED = ['package.json', 'node_modules/.package-lock.json', 'scripts/build-serve.mjs'];

const STAMP = 'build.json';

const mtime = (file) => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
};

/**
 * Why the bundle in `out` must be (re)built, or null when it is up to date: one stat per source
 * the last build read (a few milliseconds), compared with the time that build started.
 */
export function staleness(out = SERVE_OUT) {
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(path.join(out, STAMP), 'utf8'));
  } catch {
    return 'not built yet';
  }
  for (const name of [...Object.keys(ENTRIES), ...Object.keys(WORKERS)]) if (mtime(path.join(out, `${name}.js`)) === null) return `${name}.js is missing`;
  for (const rel of [...stamp.inputs, ...ALSO_WATCHED]) {
    const m = mtime(path.join(ROOT, rel));
    if (m === null) {
      if (ALSO_WATCHED.includes(rel)) continue;
      return `${rel} is gone`;
    }
    if (m > stamp.startedAt) return `${rel} changed`;
  }
  return null;
}

// CommonJS packages bundled into an ES module still call require() for Node's built-ins.
const BANNER = "import { createRequire as __agentDeskRequire } from 'node:module';\nconst require = __agentDeskRequire(import.meta.url);";

/**
 * esbuild escapes non-ASCII characters in code but keeps comments as written: a single one makes V8
 * decode and hold the whole source as two-byte text (twice the memory, a slower read at every
 * start). Escaped as esbuild escapes code (\uXXXX, the same character in a string, regex or
 * identifier; plain text in a comment).
 */
function asciiOnly(file) {
  const text = fs.readFileSync(file, 'utf8');
  if (!/[\u0080-\uffff]/.test(text)) return;
  fs.writeFileSync(file, text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** Builds into a fresh folder, then swaps it in: a process that is starting never sees half a bundle. */
export async function buildServe(out = SERVE_OUT) {
  const { build, stop } = await import('esbuild');
  const startedAt = Date.now();
  const tmp = `${out}.${process.pid}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const common = { absWorkingDir: ROOT, outdir: tmp, bundle: true, platform: 'node', format: 'esm', target: 'node22', metafile: true, logLevel: 'error', logOverride: { 'empty-import-meta': 'silent' } };
  try {
    const built = await Promise.all([
      build({ ...common, entryPoints: ENTRIES, external: EXTERNAL, banner: { js: BANNER } }),
      build({ ...common, entryPoints: WORKERS, packages: 'external' }),
    ]);
    for (const name of Object.keys(ENTRIES)) asciiOnly(path.join(tmp, `${name}.js`));
    for (const rel of COPIED) fs.copyFileSync(path.join(ROOT, rel), path.join(tmp, path.basename(rel)));
    const inputs = new Set(COPIED);
    for (const r of built) for (const file of Object.keys(r.metafile.inputs)) if (!file.includes('node_modules/') && !file.startsWith('<')) inputs.add(file);
    fs.writeFileSync(path.join(tmp, STAMP), JSON.stringify({ startedAt, inputs: [...inputs].sort() }, null, 1));
    const old = `${out}.${process.pid}.old`;
    if (fs.existsSync(out)) fs.renameSync(out, old);
    fs.renameSync(tmp, out);
    fs.rmSync(old, { recursive: true, force: true });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    // esbuild's service process would otherwise live on beside the server it built.
    await stop();
  }
}

/** How long a start waits for another process's build before it says so. */
const LOCK_WAIT_MS = 5 * 60_000;

function lockHolderAlive(lock) {
  try {
    const pid = Number(fs.readFileSync(lock, 'utf8'));
    if (!pid) return false;
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/**
 * Builds the bundle if it is stale, one builder at a time across processes (a lock file; the
 * others wait, then find it fresh). `note` gets one line when this process builds.
 * Resolves with whether it built.
 */
export async function ensureServeBuilt({ out = SERVE_OUT, force = false, note = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const lock = `${out}.lock`;
  const waitUntil = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const why = force ? 'asked to' : staleness(out);
    if (!why) return false;
    fs.mkdirSync(path.dirname(out), { recursive: true });
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
    } catch {
      if (!lockHolderAlive(lock)) fs.rmSync(lock, { force: true });
      else if (Date.now() > waitUntil) throw new Error(`Another process has been building ${path.relative(ROOT, out)} for ${LOCK_WAIT_MS / 60_000} minutes (its pid is in ${lock}); stop it or delete that file.`);
      else await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      // Another process may have finished a build while this one took the lock.
      const still = force ? 'asked to' : staleness(out);
      if (!still) return false;
      note(`Agent Desk: building the server bundle (${path.relative(ROOT, out)}: ${still})...`);
      await buildServe(out);
      return true;
    } finally {
      fs.rmSync(lock, { force: true });
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await ensureServeBuilt({ force: process.argv.includes('--force') });
  if (!built) process.stdout.write(`${path.relative(ROOT, SERVE_OUT)} is up to date.\n`);
}
