/**
 * Readers forked by the Node spawner run with few malloc arenas (MALLOC_ARENA_MAX=2 unless the
 * user set one): glibc otherwise gives each allocating thread an arena whose freed pages stay, and
 * a reader's work runs on one thread. Read from the reader's /proc environ, as the kernel has it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnReader } from '../../src-main/platform/ingest/spawned.js';

const WHO = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/readers/who.mjs');

describe.runIf(process.platform === 'linux')('readers’ malloc arenas', () => {
  it('a reader starts with MALLOC_ARENA_MAX set (2, or what the user chose)', async () => {
    const r = await spawnReader(WHO, []);
    try {
      const { pid } = await new Promise<{ pid: number }>((resolve) => {
        r.once('message', (m) => resolve(m as { pid: number }));
        r.send('who');
      });
      const env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      expect(env).toContain(`MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? '2'}`);
    } finally {
      r.kill();
    }
  });
});
