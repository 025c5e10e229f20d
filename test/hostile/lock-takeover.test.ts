import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { call, KEY, makePlatform, tempDir } from '../api/helpers.js';
import { upload } from '../files/helpers.js';
import { lifecycleOf } from '../../src-main/platform/kernel/lifecycle.js';
import { startServer, type ServerProcess } from '../api/server-process.js';
import { acquireDataDirLock } from '../../src-main/platform/db/data-dir-lock.js';
import type { Platform } from '../../src-main/platform/platform.js';
import { until, limit } from '../fixtures/until.js';
import { startHub } from '../models/hub.js';

describe('background work has an heir', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('a secondary lock takes over once the owner lets go', async () => {
    const d = tempDir();
    dirs.push(d);
    const owner = acquireDataDirLock(d);
    const heir = acquireDataDirLock(d);
    let taken = 0;
    heir.watch(() => taken++, 20);
    expect(heir.primary).toBe(false);
    owner.release();
    await until('the heir to take the lock', () => taken === 1);
    expect(heir.primary).toBe(true);
    // It holds it now: a third opener is secondary.
    const third = acquireDataDirLock(d);
    expect(third.primary).toBe(false);
    third.release();
    heir.release();
  });

  it('kill -9 of the owning process: the survivor takes the lock and starts all its background work (jobs, temp clean-up, embedding, model downloads)', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const env = { AGENT_DESK_OLLAMA_AUTODETECT: '0' };
    const hub = await startHub();
    let server: ServerProcess | null = await startServer({ dataDir: dir, env: { AGENT_DESK_API_KEY: KEY, ...env }, runner: 'node' });
    let survivor: (Platform & { dir: string }) | null = null;
    try {
      // The owner is half-way through a model download when it dies.
      const half = Math.floor(hub.bytes.length / 2);
      hub.stallAfter(half);
      const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      const made = await fetch(`${server.url}/api/models/downloads`, { method: 'POST', headers, body: JSON.stringify({ url: hub.url, sha256: hub.sha256 }) });
      expect(made.status).toBe(201);
      const download = ((await made.json()) as { id: number }).id;
      await until('the owner to download half the model', async () => {
        const r = await fetch(`${server!.url}/api/models/downloads/${download}`, { headers });
        return ((await r.json()) as { bytes: number }).bytes >= half;
      });

      survivor = makePlatform({ dataDir: dir, env });
      expect(survivor.primary).toBe(false);
      const ran: string[] = [];
      survivor.jobs.register<{ name: string }>('hostile.resume', async (job) => {
        ran.push(job.payload.name);
      });
      // One job the owner had claimed when it died, one still waiting.
      const claimed = survivor.jobs.enqueue('hostile.resume', { name: 'claimed' });
      survivor.jobs.enqueue('hostile.resume', { name: 'waiting' });
      survivor.db.prepare("UPDATE jobs SET state = 'running', attempts = 1 WHERE id = ?").run(claimed);

      // An upload the owner was receiving when it died leaves a temp file only the owner may clean.
      const stray = path.join(dir, 'files', 'tmp', 'upload-cut-by-the-kill');
      fs.writeFileSync(stray, 'half an upload');

      server.child.kill('SIGKILL');
      expect((await server.exited).signal).toBe('SIGKILL');
      server = null;
      hub.release();
      hub.stallAfter(null);

      await until('the survivor to take over and run both jobs', () => survivor!.primary && ran.length === 2);
      expect(ran.sort()).toEqual(['claimed', 'waiting']);
      await until('the heir to clean the unfinished upload', () => !fs.existsSync(stray));
      const left = survivor.db.prepare<[], { n: number }>("SELECT count(*) AS n FROM jobs WHERE kind = 'hostile.resume'");
      await until('both jobs to be finished', () => left.get()!.n === 0);

      // The download the owner left resumes in the heir, from the bytes on disk.
      const heir = survivor;
      const finished = await until('the interrupted download to complete in the heir', async () => {
        const d = (await call(heir, 'GET', `/api/models/downloads/${download}`)).json as { status: string; bytes: number };
        if (d.status === 'failed') throw new Error(`the resumed download failed: ${JSON.stringify(d)}`);
        return d.status === 'completed' ? d : null;
      }, 90_000);
      expect(finished.bytes).toBe(hub.bytes.length);
      expect(fs.readFileSync(path.join(dir, 'models', hub.name)).equals(hub.bytes)).toBe(true);
      expect(hub.requests.at(-1)!.range).toMatch(/^bytes=[1-9]\d*-$/);

      // A file uploaded to the heir is processed and embedded: its background embedding started too.
      const up = await upload(heir, 'after-takeover.txt', 'Notes written after the take-over: the heir embeds them like the owner did.');
      expect((await call(heir, 'POST', `/api/files/${up.json.id}/process`)).json.status).toBe('completed');
      await until('the heir to embed the new file', async () => {
        await heir.services.retrieval.idle();
        const v = (await call(heir, 'GET', '/api/settings/embeddings')).json as { embedded: number; total: number; vectors_in_use: boolean; error: string | null };
        if (v.error) throw new Error(`embedder error: ${v.error}`);
        return v.total > 0 && v.embedded === v.total && v.vectors_in_use;
      }, 120_000);
    } finally {
      server?.kill();
      await survivor?.close();
      await hub.close();
    }
  }, limit(300_000));

  it('owner work registered before the process owns the data dir waits for it; after, it runs at once', () => {
    let owner = false;
    const ran: string[] = [];
    const errors: unknown[] = [];
    const life = lifecycleOf([], () => owner, (err) => errors.push(err));
    life.onPrimary(() => ran.push('a'));
    life.onPrimary(() => {
      throw new Error('b broke');
    });
    life.onPrimary(() => ran.push('c'));
    expect(ran).toEqual([]);
    owner = true;
    life.becomeOwner();
    life.becomeOwner(); // once only
    expect(ran).toEqual(['a', 'c']);
    expect(errors.map((e) => (e as Error).message)).toEqual(['b broke']);
    life.onPrimary(() => ran.push('d'));
    expect(ran).toEqual(['a', 'c', 'd']);
  });
});
