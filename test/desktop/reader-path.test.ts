/**
 * One process path for readers, under Node and under Electron. The same function
 * (ingest/spawned.ts `spawnReader`) starts the file reader and the page reader in both settings;
 * only the launcher behind it differs: the app itself under Node, the Electron main process
 * (here the fake `electron` module's utilityProcess: real child processes with a parentPort) in
 * the desktop app, serving the one protocol with desktop/utility-readers.ts. The readers are the
 * bundled entries, each speaking to its parent through kernel/reader-launcher.ts `readerParent`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);
// The one launcher function, observed: every call goes on to the real one.
vi.mock('../../src-main/platform/ingest/spawned.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src-main/platform/ingest/spawned.js')>();
  return { ...real, spawnReader: vi.fn(real.spawnReader) };
});

const { fakeElectron } = await import('./fake-electron.js');
const { spawnReader, portLauncher, useReaderLauncher } = await import('../../src-main/platform/ingest/spawned.js');
const { serveReaders } = await import('../../src-main/desktop/utility-readers.js');
const { readPage } = await import('../../src-main/platform/ingest/pages/read.js');
const { makePlatform } = await import('../api/helpers.js');
const { upload, filesSettled } = await import('../files/helpers.js');
const { call } = await import('../api/helpers.js');
const { HashEmbedder } = await import('../retrieval/helpers.js');
const { limit, until } = await import('../fixtures/until.js');

const launches = vi.mocked(spawnReader);
const HEAP = /^--max-old-space-size=\d+$/;

/** Reads a page and a file through whatever launcher is in use; returns the entries `spawnReader` was asked to start. */
async function readBoth(p: ReturnType<typeof makePlatform>, words: string): Promise<string[]> {
  launches.mockClear();
  const page = await readPage(`<html><title>Hive</title><body><p>${words}</p></body></html>`);
  expect(page).toEqual({ title: 'Hive', text: expect.stringContaining(words) });
  const up = await upload(p, 'note.txt', `The file reader reads this: ${words}.`, { process: true });
  expect(up.status).toBe(200);
  await filesSettled(p);
  const file = (await call(p, 'GET', `/api/files/${up.json.id}`)).json;
  expect(file.status).toBe('completed');
  return launches.mock.calls.map(([entry, execArgv]) => {
    expect(execArgv).toEqual([expect.stringMatching(HEAP)]);
    return path.basename(entry).replace(/-\d+\.mjs$|\.js$/, '');
  });
}

describe('one process path for readers under Node and Electron', () => {
  const p = makePlatform();
  p.services.retrieval.useEmbedder(new HashEmbedder());
  afterAll(async () => {
    useReaderLauncher(null);
    await p.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
  });

  it('under Electron, spawnReader starts both readers through the main process, as utility processes', async () => {
    const { port1, port2 } = new fakeElectron.MessageChannelMain();
    const served = serveReaders(port2);
    useReaderLauncher(() => portLauncher(port1));
    try {
      const before = fakeElectron.utilityProcesses.length;
      const started = await readBoth(p, 'the bees dance in the desktop app');
      expect(started.sort()).toEqual(['page-reader', 'worker']);
      // The main process forked exactly the files spawnReader named, with the heap limit only.
      const forked = fakeElectron.utilityProcesses.slice(before) as unknown as { modulePath: string; options: { execArgv: string[]; serviceName: string } }[];
      expect(forked.map((u) => u.modulePath).sort()).toEqual(launches.mock.calls.map(([entry]) => entry).sort());
      // Each with the environment every reader gets, as the app forks them under Node (few malloc arenas).
      for (const u of forked) expect(u.options).toMatchObject({ serviceName: 'Agent Desk reader', execArgv: [expect.stringMatching(HEAP)], env: expect.objectContaining({ MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2', MALLOC_TRIM_THRESHOLD_: process.env.MALLOC_TRIM_THRESHOLD_ ?? '131072' }) });
    } finally {
      // Back to Node: the readers launched through the port end with it.
      useReaderLauncher(null);
      served.close();
    }
  }, limit(120_000));

  it('under Node, the same spawnReader starts both readers, forked by the app itself, none through Electron', async () => {
    const before = fakeElectron.utilityProcesses.length;
    const started = await readBoth(p, 'the bees dance under plain Node');
    expect(started.sort()).toEqual(['page-reader', 'worker']);
    expect(fakeElectron.utilityProcesses.length).toBe(before);
  }, limit(120_000));

  it('switching launchers ends the readers of the old one (the processes too), so the next reader starts through the new one', async () => {
    const WHO = path.join(import.meta.dirname, '../fixtures/readers/who-any.mjs');
    const who = (r: Awaited<ReturnType<typeof spawnReader>>) =>
      new Promise<{ pid: number; ppid: number }>((resolve) => {
        r.once('message', (m) => resolve(m as { pid: number; ppid: number }));
        r.send('who');
      });
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
      } catch {
        return false;
      }
    };
    // Under Node: a reader the app forked, then the switch to the main process.
    const first = await spawnReader(WHO, []);
    const { pid: nodePid, ppid: forkerPid } = await who(first);
    // Forked by this (the platform's) process itself, with no process between them.
    expect(forkerPid).toBe(process.pid);
    const closed = new Promise((resolve) => first.once('close', (_code, signal) => resolve(signal)));
    const { port1, port2 } = new fakeElectron.MessageChannelMain();
    const served = serveReaders(port2);
    useReaderLauncher(() => portLauncher(port1));
    expect(await closed).toBe('SIGKILL');
    await until('the app’s reader to end', () => !alive(nodePid));
    // The next one is the main process's; switching back ends it in turn.
    const before = fakeElectron.utilityProcesses.length;
    const second = await spawnReader(WHO, []);
    const { pid: utilityPid, ppid: mainPid } = await who(second);
    // Launched by the main process: here the fake electron forks from this test process.
    expect(mainPid).toBe(process.pid);
    expect(fakeElectron.utilityProcesses.slice(before).map((u) => u.pid)).toEqual([utilityPid]);
    useReaderLauncher(null);
    await until('the utility reader to end', () => !alive(utilityPid));
    served.close();
  }, limit(60_000));
});
