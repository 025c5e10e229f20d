/**
 * The Node spawner (the process that forks readers, and the thread that relays to it) ends once no
 * reader has run for the idle period, so a quiet serve holds neither, and the next reader starts it
 * again. Time is an injected clock; whether the process really ended (and was reaped) is read from /proc.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { limit, until } from '../fixtures/until.js';
import { ManualClock } from '../fixtures/manual-clock.js';
import { setSpawnerIdle } from '../../src-main/platform/ingest/spawned.js';
import { BuiltinEmbedder } from '../../src-main/platform/ingest/embed/builtin.js';

/** Pids of this test process's processes started from the bundled entry `name` (bundled under this pid's name). */
const pidsOf = (name: string) =>
  fs.readdirSync('/proc').filter((n) => {
    try {
      return /^\d+$/.test(n) && fs.readFileSync(`/proc/${n}/cmdline`, 'utf8').includes(`${name}-${process.pid}.mjs`);
    } catch {
      return false;
    }
  });

/** Children of this process that exited and were never reaped (zombies). */
const zombies = () =>
  fs.readdirSync('/proc').filter((n) => {
    try {
      const stat = fs.readFileSync(`/proc/${n}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return state === 'Z' && Number(ppid) === process.pid;
    } catch {
      return false;
    }
  });

describe.runIf(process.platform === 'linux')('the reader spawner', () => {
  it('stays while a reader runs, ends once none has run for the idle period, and starts again for the next reader', async () => {
    const clock = new ManualClock();
    setSpawnerIdle({ ms: 5_000, clock: { now: clock.now, set: clock.setTimeout, clear: clock.clearTimeout } });
    // The embedder is a reader that stays until closed (its own idle end off).
    const e = new BuiltinEmbedder({ idleMs: 0 });
    try {
      expect((await e.embed(['bees like lavender']))[0]).toHaveLength(512);
      expect(pidsOf('spawner')).toHaveLength(1);
      clock.advance(600_000);
      expect(pidsOf('spawner')).toHaveLength(1);
      expect(pidsOf('builtin-process')).toHaveLength(1);

      await e.close();
      await until('the reader and then the spawner to end once the period passed', () => {
        clock.advance(5_000);
        return pidsOf('builtin-process').length === 0 && pidsOf('spawner').length === 0;
      });
      // Reaped, not left a zombie.
      await until('the spawner process to be reaped', () => zombies().length === 0);

      const [again] = await e.embed(['bees like lavender']);
      expect(again).toHaveLength(512);
      expect(pidsOf('spawner')).toHaveLength(1);
    } finally {
      await e.close();
      setSpawnerIdle({ ms: 0 });
    }
  }, limit(120_000));
});
