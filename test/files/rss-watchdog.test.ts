/**
 * The file reader's memory watchdog (ingest/watchdog.ts): a thread started from its own bundled
 * entry that kills its process past the resident-memory limit, after writing the mark the runner
 * reads as "too large"; a number posted to it changes the limit.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RSS_MARK, rssWatchdogEntry } from '../../src-main/platform/ingest/watchdog.js';
import { limit } from '../fixtures/until.js';

const CHILD = path.join(import.meta.dirname, '../fixtures/readers/rss-watchdog-child.ts');

async function runChild(args: string[]): Promise<{ signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const entry = await rssWatchdogEntry();
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, entry, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b) => (stdout += b));
  child.stderr.on('data', (b) => (stderr += b));
  // A safety net only: a watchdog that never fires leaves SIGTERM, which fails the test.
  const safety = setTimeout(() => child.kill('SIGTERM'), limit(30_000));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.once('close', (_code, s) => resolve(s)));
  clearTimeout(safety);
  return { signal, stdout, stderr };
}

describe('the reader memory watchdog thread', () => {
  it('starts from a file (not code in a string) and kills its process past the limit, marking why on stderr', async () => {
    expect(await rssWatchdogEntry()).toMatch(/\.m?js$/);
    const r = await runChild(['1']);
    expect(r.signal, r.stderr).toBe('SIGKILL');
    expect(r.stderr).toMatch(new RegExp(`\\n${RSS_MARK}\\d+ MB\\n`));
  }, limit(60_000));

  it('a limit posted to it replaces the first one', async () => {
    const r = await runChild(['1000000', '1']);
    expect(r.signal, r.stderr).toBe('SIGKILL');
    // Alive under the first limit until the lower one was posted.
    expect(r.stdout).toBe('online\nlowering\n');
    expect(r.stderr).toContain(RSS_MARK);
  }, limit(60_000));
});
