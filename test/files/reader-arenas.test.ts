/**
 * Every reader starts with few malloc arenas (MALLOC_ARENA_MAX=2) and a fixed trim threshold (unless the user set them), whichever
 * runtime launches it: glibc otherwise gives each allocating thread an arena whose freed pages stay,
 * and a reader's work runs on one thread. Under Node the app forks it; in the desktop app the main
 * process launches it as a utility process (here the fake electron's: a real child process). Read
 * from the reader's /proc environ, as the kernel has it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../desktop/fake-electron.js')).fakeElectron);
const { fakeElectron } = await import('../desktop/fake-electron.js');
const { spawnReader, portLauncher, useReaderLauncher } = await import('../../src-main/platform/ingest/spawned.js');
const { serveReaders } = await import('../../src-main/desktop/utility-readers.js');

const WHO = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/readers/who-any.mjs');

async function arenasOfAReader(): Promise<string[]> {
  const r = await spawnReader(WHO, []);
  try {
    const { pid } = await new Promise<{ pid: number }>((resolve) => {
      r.once('message', (m) => resolve(m as { pid: number }));
      r.send('who');
    });
    return fs
      .readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter((v) => v.startsWith('MALLOC_ARENA_MAX=') || v.startsWith('MALLOC_TRIM_THRESHOLD_='))
      .sort();
  } finally {
    r.kill();
  }
}

describe.runIf(process.platform === 'linux')('readers’ malloc arenas', () => {
  const want = [`MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? '2'}`, `MALLOC_TRIM_THRESHOLD_=${process.env.MALLOC_TRIM_THRESHOLD_ ?? '131072'}`];

  it('a reader the app forks under Node starts with MALLOC_ARENA_MAX (2) and a fixed MALLOC_TRIM_THRESHOLD_ (128 KB), or what the user chose', async () => {
    expect(await arenasOfAReader()).toEqual(want);
  });

  it('a reader the desktop’s main process launches starts with the same', async () => {
    const { port1, port2 } = new fakeElectron.MessageChannelMain();
    const served = serveReaders(port2);
    useReaderLauncher(() => portLauncher(port1));
    try {
      const before = fakeElectron.utilityProcesses.length;
      expect(await arenasOfAReader()).toEqual(want);
      expect(fakeElectron.utilityProcesses.length).toBe(before + 1);
    } finally {
      useReaderLauncher(null);
      served.close();
    }
  });
});
