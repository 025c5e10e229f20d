import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BuiltinEmbedder } from '../../src-main/platform/ingest/embed/builtin.js';

const niceOf = (tid: string) => Number(fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]);

describe.runIf(process.platform === 'linux')('the built-in embedder is background work', () => {
  it('its thread runs at a lower priority; the event loop’s thread does not', async () => {
    const before = fs.readdirSync('/proc/self/task').filter((t) => niceOf(t) === 5);
    const e = new BuiltinEmbedder();
    try {
      const [v] = await e.embed(['bees like lavender']);
      expect(v).toHaveLength(512);
      const lowered = fs.readdirSync('/proc/self/task').filter((t) => niceOf(t) === 5 && !before.includes(t));
      expect(lowered).toHaveLength(1);
      expect(niceOf(String(process.pid))).toBe(0);
    } finally {
      await e.close();
    }
  });
});
