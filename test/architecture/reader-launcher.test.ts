import { describe, expect, it } from 'vitest';
import { linesWhere, sourcesUnder, type Source } from './sources.js';

/** The one reader launcher: the protocol's messages and its server, under Node and Electron alike. */
const HOME = 'src-main/platform/kernel/reader-launcher.ts';
const SERVES = [/\.op\s*===\s*'spawn'/, /op:\s*'close',\s*id/, /\{\s*op:\s*'spawn';\s*id:\s*number/];

export function launchersElsewhere(files: Source[]): string[] {
  return linesWhere(files, (name, line) => name !== HOME && SERVES.some((re) => re.test(line)));
}

/** The files a reader's start passes through, from the platform's call to the reader's first message. */
const PATH = [
  'src-main/platform/ingest/spawned.ts',
  'src-main/platform/ingest/run.ts',
  'src-main/platform/ingest/pages/read.ts',
  'src-main/platform/ingest/worker.ts',
  'src-main/platform/ingest/pages/page-reader.ts',
  HOME,
  // Run from sources, each entry is bundled first (in a thread started from bundle-thread.mjs).
  'src-main/platform/kernel/worker-entry.ts',
  'src-main/desktop/reader-launcher.ts',
  'src-main/desktop/utility-readers.ts',
  // A file reader's memory watchdog: a thread of the reader, started from its own bundled entry too.
  'src-main/platform/ingest/watchdog.ts',
  'src-main/platform/ingest/watchdog-thread.ts',
];

/**
 * Code run from a string (`new Worker(code, { eval: true })`) anywhere in src-main: every thread and
 * process starts from a file of its own, bundled (resolved through kernel/worker-entry.ts).
 */
export function evalOnPath(files: Source[]): string[] {
  return linesWhere(
    files.filter((f) => f.name.startsWith('src-main/')),
    (_n, line) => /\beval:\s*true\b/.test(line),
  );
}

/** Only the launchers fork: the app's own under Node (child_process, ingest/spawned.ts) and the desktop's utility readers (utilityProcess). */
const FORKERS = new Set(['src-main/platform/ingest/spawned.ts', 'src-main/desktop/utility-readers.ts']);
export function readerForksElsewhere(files: Source[]): string[] {
  return linesWhere(
    files.filter((f) => f.name.startsWith('src-main/platform/ingest/') || f.name.startsWith('src-main/platform/kernel/') || f.name.startsWith('src-main/desktop/')),
    (name, line) => !FORKERS.has(name) && /'Agent Desk reader'|\bfrom 'node:child_process'/.test(line),
  );
}

/** A reader hears its parent only through kernel `readerParent` (parentPort under Electron, IPC under Node), never on its own. */
const READERS = new Set(['src-main/platform/ingest/worker.ts', 'src-main/platform/ingest/pages/page-reader.ts']);
export function readersOwnChannel(files: Source[]): string[] {
  return linesWhere(
    files.filter((f) => READERS.has(f.name)),
    (_n, line) => /\.parentPort\b|process\.(on|once)\(\s*'(message|disconnect)'|process\.send\b/.test(line),
  );
}

describe('one process path for readers (kernel/reader-launcher.ts serves the app under Node and the desktop main process)', () => {
  it('finds a planted second launcher', () => {
    const planted = "type FromParent = { op: 'spawn'; id: number; entry: string } | { op: 'kill'; id: number };\nif (m.op === 'spawn') return spawn(m);\ntell({ op: 'close', id: m.id, code, signal, stderr });\n";
    expect(launchersElsewhere([{ name: 'src-main/platform/ingest/spawned.ts', text: planted }])).toHaveLength(3);
    expect(launchersElsewhere([{ name: HOME, text: planted }])).toEqual([]);
  });

  it('finds a planted eval’d launcher thread, a second forker, and a reader with its own channel', () => {
    const thread = "const LAUNCHER = `const { fork } = require('node:child_process');`;\nnew Worker(LAUNCHER, { eval: true, workerData: { entry } });\n";
    expect(evalOnPath([{ name: 'src-main/platform/ingest/spawned.ts', text: thread }])).toHaveLength(1);
    const tokenizer = "const worker = new Worker(WORKER_SOURCE, { eval: true, name: 'tokenizer', workerData });\n";
    expect(evalOnPath([{ name: 'src-main/platform/engine/tokens.ts', text: tokenizer }])).toHaveLength(1);
    expect(evalOnPath([{ name: 'src-main/desktop/lifecycle.ts', text: thread }])).toHaveLength(1);
    expect(evalOnPath([{ name: 'scripts/build-serve.mjs', text: thread }])).toEqual([]);
    const watchdog = "const code = `setInterval(() => process.memoryUsage.rss() > limit && process.kill(process.pid, 'SIGKILL'), 20);`;\nconst w = new Worker(code, { eval: true, workerData: { maxRssMb } });\n";
    expect(evalOnPath([{ name: 'src-main/platform/ingest/watchdog.ts', text: watchdog }])).toHaveLength(1);
    const forker = "import { fork } from 'node:child_process';\nutilityProcess.fork(file, [], { serviceName: 'Agent Desk reader' });\n";
    expect(readerForksElsewhere([{ name: 'src-main/platform/ingest/pages/read.ts', text: forker }])).toHaveLength(2);
    expect(readerForksElsewhere([{ name: 'src-main/desktop/lifecycle.ts', text: forker }])).toHaveLength(2);
    expect(readerForksElsewhere([{ name: 'src-main/platform/ingest/spawned.ts', text: forker }])).toEqual([]);
    const own = "const parentPort = (process as any).parentPort;\nprocess.on('message', (m) => read(m, (r) => process.send!(r)));\n";
    expect(readersOwnChannel([{ name: 'src-main/platform/ingest/pages/page-reader.ts', text: own }])).toHaveLength(2);
  });

  it('holds for src-main: one launcher in the kernel, every thread and process started from bundled files (no eval anywhere), forked only by the two launchers, each giving readers the same environment, heard through readerParent', () => {
    const files = sourcesUnder('src-main');
    expect(launchersElsewhere(files)).toEqual([]);
    expect(evalOnPath(files)).toEqual([]);
    expect(readerForksElsewhere(files)).toEqual([]);
    expect(readersOwnChannel(files)).toEqual([]);
    const text = (n: string) => files.find((f) => f.name === n)?.text ?? '';
    for (const f of PATH) expect(text(f), f).not.toBe('');
    // Both launchers serve the one protocol and give a reader the one environment (kernel readerEnv).
    expect(text('src-main/platform/ingest/spawned.ts')).toMatch(/serveReaderLauncher\(/);
    for (const f of FORKERS) expect(text(f), f).toMatch(/\benv: [^,]*readerEnv\(\)/);
    expect(text('src-main/desktop/reader-launcher.ts')).toMatch(/from '\.\.\/platform\/kernel\/reader-launcher\.js'/);
    for (const r of READERS) expect(text(r)).toMatch(/readerParent\(\)/);
    // The file reader's memory watchdog thread starts from its own entry, resolved by the launching process.
    expect(text('src-main/platform/ingest/watchdog.ts')).toMatch(/workerEntry\(import\.meta\.url, '\.\/watchdog-thread\.ts', '\.\/rss-watchdog\.js'\)/);
    expect(text('src-main/platform/ingest/run.ts')).toMatch(/rssWatchdogEntry\(\)/);
    // The file reader and the page reader start through the one function.
    for (const caller of ['src-main/platform/ingest/run.ts', 'src-main/platform/ingest/pages/read.ts']) expect(text(caller)).toMatch(/import \{ spawnReader\b[^}]*\} from '\.{1,2}\/spawned\.js'/);
  });
});
