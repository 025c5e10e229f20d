import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { KEY, makePlatform, tempDir } from '../api/helpers.js';
import { startServer, type ServerProcess } from '../api/server-process.js';
import { acquireDataDirLock } from '../../src-main/platform/db/data-dir-lock.js';
import type { Platform } from '../../src-main/platform/platform.js';
import { until } from '../fixtures/until.js';


describe('background work has an heir', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('a secondary lock takes over once the owner lets go', async () => {
    const d = tempDir();
    dirs.push(d);
    const owner = acquireDataDirLock(d);
    const heir = acquireDataDirLock(d);
    let taken = 0;
    heir.watch(() => taken++, 20);
    expect(heir.primary).toBe(false);
    owner.release();
    await until('the heir to take the lock', () => taken === 1);
    expect(heir.primary).toBe(true);
    // It holds it now: a third opener is secondary.
    const third = acquireDataDirLock(d);
    expect(third.primary).toBe(false);
    third.release();
    heir.release();
  });

  it('kill -9 of the owning process: the surviving process takes the lock and resumes the jobs it left', async () => {
    const dir = tempDir();
    dirs.push(dir);
    let server: ServerProcess | null = await startServer({ dataDir: dir, env: { AGENT_DESK_API_KEY: KEY }, runner: 'node' });
    let survivor: (Platform & { dir: string }) | null = null;
    try {
      survivor = makePlatform({ dataDir: dir });
      expect(survivor.primary).toBe(false);
      const ran: string[] = [];
      survivor.jobs.register<{ name: string }>('hostile.resume', async (job) => {
        ran.push(job.payload.name);
      });
      // One job the owner had claimed when it died, one still waiting.
      const claimed = survivor.jobs.enqueue('hostile.resume', { name: 'claimed' });
      survivor.jobs.enqueue('hostile.resume', { name: 'waiting' });
      survivor.db.prepare("UPDATE jobs SET state = 'running', attempts = 1 WHERE id = ?").run(claimed);

      server.child.kill('SIGKILL');
      expect((await server.exited).signal).toBe('SIGKILL');
      server = null;

      await until('the survivor to take over and run both jobs', () => survivor!.primary && ran.length === 2);
      expect(ran.sort()).toEqual(['claimed', 'waiting']);
      const left = survivor.db.prepare<[], { n: number }>("SELECT count(*) AS n FROM jobs WHERE kind = 'hostile.resume'");
      await until('both jobs to be finished', () => left.get()!.n === 0);
    } finally {
      server?.kill();
      await survivor?.close();
    }
  }, 90_000);
});
