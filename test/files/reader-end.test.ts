/**
 * Under Node the app forks its readers itself, so nothing of the launch outlives them: with the
 * embedder (a reader that stays until closed) ended, the app has no child process left, reaped, not
 * a zombie, and the next reader starts from the app again. Read from /proc.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { limit, until } from '../fixtures/until.js';
import { BuiltinEmbedder } from '../../src-main/platform/ingest/embed/builtin.js';

/** This process's children, with their state and command line. */
const children = () =>
  fs.readdirSync('/proc').flatMap((n) => {
    if (!/^\d+$/.test(n)) return [];
    try {
      const stat = fs.readFileSync(`/proc/${n}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) !== process.pid) return [];
      return [{ pid: Number(n), state, cmd: fs.readFileSync(`/proc/${n}/cmdline`, 'utf8') }];
    } catch {
      return [];
    }
  });
/** The embedder's processes (its entry is bundled under this pid's name). */
const embedders = () => children().filter((c) => c.cmd.includes(`builtin-process-${process.pid}.mjs`));

describe.runIf(process.platform === 'linux')('readers forked by the app', () => {
  it('the embedder is the app’s own child; once it ends the app holds no process for readers, and the next one starts again', async () => {
    const e = new BuiltinEmbedder({ idleMs: 0 });
    try {
      expect((await e.embed(['bees like lavender']))[0]).toHaveLength(512);
      // Forked by this process, with nothing between them.
      expect(embedders()).toHaveLength(1);

      await e.close();
      await until('the embedder to end and be reaped (no zombie, no other process left)', () => children().length === 0);

      const [again] = await e.embed(['bees like lavender']);
      expect(again).toHaveLength(512);
      expect(embedders()).toHaveLength(1);
    } finally {
      await e.close();
    }
    await until('the second embedder to end', () => children().length === 0);
  }, limit(120_000));
});
