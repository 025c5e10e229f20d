import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSteps, runStepsYielding, type Steps } from '../../src-main/platform/kernel/steps.js';
import { startPlatform } from '../../src-main/platform/platform.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';
import { call, KEY, tempDir } from '../api/helpers.js';

function* counted(log: string[]): Steps<number> {
  log.push('a');
  yield;
  log.push('b');
  yield;
  log.push('c');
  return 42;
}

/** Counts turns of the event loop (an immediate that re-arms itself) until stopped. */
function turnCounter() {
  let turns = 0;
  let on = true;
  const tick = () => {
    turns++;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get turns() {
      return turns;
    },
    stop: () => (on = false),
  };
}

describe('work written as steps', () => {
  it('runs at once, all in the caller’s turn', () => {
    const log: string[] = [];
    const turns = turnCounter();
    expect(runSteps(counted(log))).toBe(42);
    expect(log).toEqual(['a', 'b', 'c']);
    expect(turns.turns).toBe(0);
    turns.stop();
  });

  it('or one step per turn, with the same result, letting other work run between steps', async () => {
    const log: string[] = [];
    const turns = turnCounter();
    const seen: number[] = [];
    function* watched(): Steps<number> {
      const v = yield* counted(log);
      seen.push(turns.turns);
      return v;
    }
    const done = runStepsYielding(
      (function* () {
        seen.push(turns.turns);
        yield;
        seen.push(turns.turns);
        return yield* watched();
      })(),
    );
    await expect(done).resolves.toBe(42);
    turns.stop();
    expect(log).toEqual(['a', 'b', 'c']);
    // Each step ran in a later turn than the one before it.
    expect(seen[1]).toBeGreaterThan(seen[0]);
    expect(seen[2]).toBeGreaterThan(seen[1]);
  });

  it('passes a step’s error to the caller', async () => {
    function* failing(): Steps<void> {
      yield;
      throw new Error('migration 3 failed');
    }
    expect(() => runSteps(failing())).toThrow('migration 3 failed');
    await expect(runStepsYielding(failing())).rejects.toThrow('migration 3 failed');
  });

  it('startPlatform builds the platform over many turns, not in one', async () => {
    const dir = tempDir();
    const turns = turnCounter();
    const p = await startPlatform({ dataDir: dir, envApiKey: KEY, logger: createLogger('silent'), env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    turns.stop();
    try {
      // Database, each migration, the modules in groups, seed and each router: well over twenty steps.
      expect(turns.turns).toBeGreaterThan(20);
      // And it is the whole platform: seeded, routed, answering.
      const res = await call(p, 'GET', '/api/agents');
      expect(res.status).toBe(200);
      expect(res.json.data.length).toBeGreaterThan(0);
    } finally {
      await p.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
