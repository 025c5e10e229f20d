import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BuiltinEmbedder, launchEmbedderProcess, type EmbedderChild } from '../../src-main/platform/ingest/embed/builtin.js';
import { until } from '../fixtures/until.js';

const niceOf = (stat: string) => Number(stat.split(') ')[1].split(' ')[16]);
const taskNice = (tid: string) => niceOf(fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8'));

/** The embedder processes this test process started (their entry is bundled under this pid's name). */
const embedderPids = () =>
  fs.readdirSync('/proc').filter((n) => {
    try {
      return /^\d+$/.test(n) && fs.readFileSync(`/proc/${n}/cmdline`, 'utf8').includes(`builtin-process-${process.pid}.mjs`);
    } catch {
      return false;
    }
  });

describe.runIf(process.platform === 'linux')('the built-in embedder is background work', () => {
  it('its process runs at a lower priority; no thread of the app is lowered (the app’s event loop keeps its CPU)', async () => {
    const before = fs.readdirSync('/proc/self/task').filter((t) => taskNice(t) === 5);
    let launched = 0;
    const e = new BuiltinEmbedder({ launch: async (): Promise<EmbedderChild> => (launched++, launchEmbedderProcess()) });
    try {
      const [v] = await e.embed(['bees like lavender']);
      expect(v).toHaveLength(512);
      expect(launched).toBe(1);
      const pids = embedderPids();
      expect(pids).toHaveLength(1);
      expect(niceOf(fs.readFileSync(`/proc/${pids[0]}/stat`, 'utf8'))).toBe(5);
      expect(fs.readdirSync('/proc/self/task').filter((t) => taskNice(t) === 5 && !before.includes(t))).toEqual([]);
      expect(taskNice(String(process.pid))).toBe(0);
    } finally {
      await e.close();
    }
    await until('the embedder process to end with close()', () => embedderPids().length === 0);
  });
});
