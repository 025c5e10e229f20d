import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePlatform } from '../api/helpers.js';
import { insertExecution } from './helpers.js';
import { ExecutionsStore, type ProgressState } from '../../src-main/platform/modules/executions/store.js';
import { nowMicros } from '../../src-main/platform/kernel/time.js';
import { limit, until } from '../fixtures/until.js';

/**
 * Streamed progress of running executions: every execution that changed before the shared timer
 * fires is written by one commit (not one commit per stream per 100 ms), with the state it has
 * when the commit runs; an execution that ended or was forgotten is not written.
 */
describe('progress writes of running executions share one commit', () => {
  let p: ReturnType<typeof makePlatform>;
  let store: ExecutionsStore;
  beforeAll(() => {
    p = makePlatform();
    store = new ExecutionsStore(p.db);
  });
  afterAll(async () => {
    store.close();
    await p.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
  });

  const newExecution = () => insertExecution(p, store);
  const row = (id: number) => p.db.prepare('SELECT status, output FROM executions WHERE id = ?').get(id) as { status: string; output: string };
  const indexed = (id: number) => (p.db.prepare('SELECT count(*) AS n FROM session_search WHERE rowid = ?').get(id) as { n: number }).n;
  const turn = () => new Promise((r) => setImmediate(r));

  it('executions changed in different turns are written together, each with its latest state, and indexed once', async () => {
    const ids = [newExecution(), newExecution(), newExecution()];
    const state = new Map<number, { output: string; index: boolean }>(ids.map((id) => [id, { output: '', index: true }]));
    const read = (id: number) => (): ProgressState => {
      const s = state.get(id)!;
      const out = { id, status: 'running' as const, output: s.output, provider: 'fake', now: nowMicros(), steps: null, index: s.index };
      s.index = false;
      return out;
    };
    const before = store.progressCommits;
    // A delay no loaded machine reaches between these turns: the commit below is the one that timer would make.
    for (const id of ids) {
      state.get(id)!.output = `text of ${id}`;
      store.progressSoon(id, read(id), limit(60_000));
      await turn();
    }
    // Changed again after it was marked: the commit writes what it holds then.
    state.get(ids[0])!.output = `more text of ${ids[0]}`;
    store.progressSoon(ids[0], read(ids[0]), limit(60_000));
    expect(ids.map((id) => row(id).status)).toEqual(['starting', 'starting', 'starting']);
    store.flushProgress();
    expect(store.progressCommits).toBe(before + 1);
    expect(ids.map((id) => row(id))).toEqual([
      { status: 'running', output: `more text of ${ids[0]}` },
      { status: 'running', output: `text of ${ids[1]}` },
      { status: 'running', output: `text of ${ids[2]}` },
    ]);
    expect(ids.map(indexed)).toEqual([1, 1, 1]);

    // The next change starts the next shared timer, which commits on its own; the index is not written twice.
    state.get(ids[1])!.output = `later text of ${ids[1]}`;
    store.progressSoon(ids[1], read(ids[1]), 50);
    await until('the second progress commit', () => store.progressCommits > before + 1);
    expect(row(ids[1]).output).toBe(`later text of ${ids[1]}`);
    expect(indexed(ids[1])).toBe(1);
  });

  it('an execution that ended (its reader says so) or was forgotten is not written', async () => {
    const [ended, forgotten, running] = [newExecution(), newExecution(), newExecution()];
    const before = store.progressCommits;
    store.progressSoon(ended, () => null, 50);
    store.progressSoon(forgotten, () => ({ id: forgotten, status: 'running', output: 'x', provider: null, now: nowMicros(), steps: null, index: false }), 50);
    store.progressSoon(running, () => ({ id: running, status: 'running', output: 'y', provider: null, now: nowMicros(), steps: null, index: false }), 50);
    store.forgetProgress(forgotten);
    await until('the progress to be written', () => store.progressCommits > before);
    expect([row(ended), row(forgotten), row(running)]).toEqual([
      { status: 'starting', output: '' },
      { status: 'starting', output: '' },
      { status: 'running', output: 'y' },
    ]);
  });
});
