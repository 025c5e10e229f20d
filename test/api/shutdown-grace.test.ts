import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makePlatform } from './helpers.js';
import { limit } from '../fixtures/until.js';
import type { Embedder } from '../../src-main/platform/ingest/embed/types.js';

/**
 * A shutdown always ends within the grace period (AGENT_DESK_SHUTDOWN_GRACE_S): a part that does
 * not end when asked (here an embedder whose thread never finishes closing, as a server that had
 * embedded a corpus once outlived its SIGTERM) is logged and left behind; the database is closed.
 */
describe('shutdown grace', () => {
  it('close() ends though the embedder never finishes closing', async () => {
    const p = makePlatform({ env: { AGENT_DESK_SHUTDOWN_GRACE_S: '1' } });
    const stuck: Embedder = { key: 'test:stuck', dims: () => 4, embed: async (texts) => texts.map(() => new Float32Array(4).fill(0.5)), close: () => new Promise<void>(() => {}) };
    p.services.retrieval.useEmbedder(stuck);
    await p.services.retrieval.idle();
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([p.close().then(() => 'closed'), new Promise((r) => (timer = setTimeout(() => r('still closing'), limit(15_000))))]);
    clearTimeout(timer);
    expect(outcome).toBe('closed');
    expect(p.db.open).toBe(false);
    fs.rmSync(p.dir, { recursive: true, force: true });
  }, limit(60_000));
});
