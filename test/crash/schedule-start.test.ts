/**
 * A scheduled run's execution and the run's pointer to it commit together: a process killed
 * between the two writes (kill -9 at that exact point, in a child) leaves neither, and the retried
 * job at the next start creates exactly one execution, which its run points to.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makePlatform, tempDir } from '../api/helpers.js';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';
import { limit, until } from '../fixtures/until.js';

const CHILD = path.join(import.meta.dirname, 'fixtures/schedule-start-child.ts');
const START = '2026-11-23T12:00:00Z';
const children: ChildProcess[] = [];
const dirs: string[] = [];
const fakes: FakeServer[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('a scheduled start killed between its two writes', () => {
  it('leaves no orphan execution, and the restart creates exactly one, pointed to by its run', async () => {
    const fake = await startFakeOpenAI({ reply: 'After the crash.' });
    fakes.push(fake);
    const dir = tempDir('agent-desk-sched-crash-');
    dirs.push(dir);
    const env = { AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_OLLAMA_AUTODETECT: '0' };

    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, START], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (b) => (out += b));
    child.stderr!.on('data', (b) => (out += b));
    const safety = setTimeout(() => child.kill('SIGTERM'), limit(60_000));
    const exit = await new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    clearTimeout(safety);
    // Killed by its own hook (SIGTERM would be the safety net: the hook was never reached).
    expect(exit, out).toBe('SIGKILL');

    const p = makePlatform({ env, clock: { now: () => Date.parse(START) + 5 * 60_000 }, dataDir: dir });
    try {
      const run = await until('the retried run to finish its execution', () => {
        const r = p.db.prepare('SELECT r.execution_id, e.status FROM schedule_runs r LEFT JOIN executions e ON e.id = r.execution_id').get() as
          | { execution_id: number | null; status: string | null }
          | undefined;
        return r?.status === 'succeeded' ? r : null;
      });
      const executions = p.db.prepare('SELECT id, status, output FROM executions ORDER BY id').all() as { id: number; status: string; output: string }[];
      expect(executions).toEqual([{ id: run.execution_id, status: 'succeeded', output: 'After the crash.' }]);
      const orphans = p.db.prepare('SELECT count(*) AS n FROM executions e WHERE NOT EXISTS (SELECT 1 FROM schedule_runs r WHERE r.execution_id = e.id)').get();
      expect(orphans).toEqual({ n: 0 });
      expect(p.db.prepare('SELECT count(*) AS n FROM schedule_runs').get()).toEqual({ n: 1 });
    } finally {
      await p.close();
    }
  });
});
