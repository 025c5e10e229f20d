/**
 * Export/import of a workspace: a restore into a fresh data dir gives back the same data (over
 * HTTP and with the CLI), and a damaged or hostile archive is refused whole, changing nothing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makePlatform, tempDir } from '../api/helpers.js';
import { tarEnd, tarEntry } from '../../src-main/platform/modules/archive/tar.js';
import { createPlatform } from '../../src-main/platform/platform.js';
import { digestTables, changedTables } from '../fuzz/digest.js';
import { exportTar, importTar, runCli, upload, userView } from './data-safety-helpers.js';
import { limit } from '../fixtures/until.js';

const src = makePlatform({ env: {} });
const dirs: string[] = [src.dir];
let archive: Buffer;

/**
 * The source's view as an import gives it back: every memory in one new collection named after
 * the archive (never the default one), every webhook inactive (CONTRACT.md "Secrets, side effects,
 * files on disk"); everything else the same.
 */
function asImported(view: ReturnType<typeof userView>, collection: string, existing: string[] = []) {
  return {
    ...view,
    memories: view.memories.map((m) => `${collection}: ${m.slice(m.indexOf(': ') + 2)}`).sort(),
    collections: [...existing, collection].sort(),
    webhooks: view.webhooks.map((w) => w.replace(/ active /, ' inactive ')),
  };
}

function fresh() {
  const p = makePlatform({ env: {} });
  dirs.push(p.dir);
  return p;
}

beforeAll(async () => {
  const col = await call(src, 'POST', '/api/memory-collections', { body: { name: 'Recettes — été ☀' } });
  expect(col.status).toBe(200);
  for (const memory of ['plain note', 'ünïcødé 漢字 🧪 note', 'x'.repeat(32_000)]) {
    expect((await call(src, 'POST', '/api/memories', { body: { memory } })).status).toBe(200);
  }
  expect((await call(src, 'POST', '/api/memories', { body: { memory: 'in a collection', collection_id: col.json.collection.id } })).status).toBe(200);
  const agent = await call(src, 'POST', '/api/agents', { body: { title: 'Exported agent', instructions: 'Be brief.', type: 'text', questions: [{ type: 'select', name: 'tone', description: 'Tone', required: true, options: ['dry', 'warm'] }] } });
  expect(agent.status).toBe(201);
  expect((await call(src, 'POST', `/api/agents/${agent.json.id}/webhooks`, { body: { url: 'http://127.0.0.1:9/hook', method: 'POST', status: 'inactive' } })).status).toBe(201);
  const txt = await upload(src, 'notes.txt', Buffer.from('Alpha beta gamma.\n\nDelta epsilon.'), { process: true });
  expect(txt.status).toBe(200);
  const bin = await upload(src, 'photo.png', crypto.randomBytes(200_000));
  expect(bin.status).toBe(200);
  expect((await call(src, 'POST', `/api/agents/${agent.json.id}/files`, { body: { file_ids: [txt.json.id] } })).status).toBe(200);
  await src.jobs.idle(limit(20_000));
  // A restore keeps the webhooks' signing secrets (asked for: exports leave them out by default).
  archive = await exportTar(src, '?include_secrets=1');
});

afterAll(async () => {
  await src.close().catch(() => {});
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('export and import', () => {
  it('restores a workspace into a fresh data dir over HTTP: same agents, memories, collections, webhooks, files and bytes', async () => {
    const dst = fresh();
    try {
      // A fresh install holds the seeded catalog too; what is compared is the source's view.
      dst.db.exec("DELETE FROM agents; DELETE FROM memories; DELETE FROM memory_collections;");
      const r = await importTar(dst, archive);
      expect(r.status, r.text).toBe(200);
      expect(r.json.imported.files).toBe(2);
      expect(r.json.imported.memories).toBe(4);
      expect(r.json.imported.memory_collections).toBe(1);
      const got = userView(dst);
      expect({ ...got, memories: [...got.memories].sort() }).toEqual(asImported(userView(src), 'Imported export'));
      // File bytes: identical, stored by their new ids.
      for (const f of dst.db.prepare('SELECT id, sha256 FROM files').all() as { id: number; sha256: string }[]) {
        const bytes = fs.readFileSync(path.join(dst.dir, 'files', String(f.id)));
        expect(crypto.createHash('sha256').update(bytes).digest('hex')).toBe(f.sha256);
      }
      // The restored memories are searchable (the full-text index followed).
      const q = await call(dst, 'GET', '/api/memories?q=ünïcødé');
      expect(q.json.memories.map((m: any) => m.memory)).toEqual(['ünïcødé 漢字 🧪 note']);
      expect(dst.db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(dst.db.pragma('foreign_key_check')).toEqual([]);
    } finally {
      await dst.close();
    }
  });

  it('importing twice adds a second copy with fresh slugs, never overwriting', async () => {
    const dst = fresh();
    try {
      const before = (dst.db.prepare('SELECT count(*) AS n FROM agents').get() as any).n;
      expect((await importTar(dst, archive)).status).toBe(200);
      expect((await importTar(dst, archive)).status).toBe(200);
      const agents = dst.db.prepare("SELECT slug FROM agents WHERE title = 'Exported agent' ORDER BY id").all() as { slug: string }[];
      expect(agents).toHaveLength(2);
      expect(new Set(agents.map((a) => a.slug)).size).toBe(2);
      expect((dst.db.prepare('SELECT count(*) AS n FROM agents').get() as any).n).toBeGreaterThan(before);
      expect((dst.db.prepare('SELECT count(*) AS n FROM files').get() as any).n).toBe(4);
    } finally {
      await dst.close();
    }
  });

  it('round-trips with the CLI: npm run export, npm run import into a new data dir', async () => {
    await src.close();
    const out = path.join(tempDir('agent-desk-cli-'), 'ws.tar');
    dirs.push(path.dirname(out));
    const e = runCli('src-main/platform/cli/backup.ts', ['export', '--data-dir', src.dir, '--out', out, '--include-secrets']);
    expect(e.status, e.stderr).toBe(0);
    expect(fs.existsSync(out)).toBe(true);
    const target = tempDir('agent-desk-restore-');
    dirs.push(target);
    const i = runCli('src-main/platform/cli/backup.ts', ['import', out, '--data-dir', target]);
    expect(i.status, i.stderr).toBe(0);
    expect(i.stdout).toMatch(/Imported into .*2 files/);
    const reopened = createPlatform({ dataDir: src.dir, envApiKey: 'k', env: {} });
    const restored = createPlatform({ dataDir: target, envApiKey: 'k', env: {} });
    try {
      const got = userView(restored);
      // The CLI's import into a new data dir: its own default collection is there too.
      expect({ ...got, memories: [...got.memories].sort() }).toEqual(asImported(userView(reopened), 'Imported ws', got.collections.filter((c) => c !== 'Imported ws')));
      expect(got.collections).not.toContain('Recettes — été ☀');
    } finally {
      await reopened.close();
      await restored.close();
    }
  }, limit(180_000)); // two CLI processes, each a cold start of the platform
});

describe('hostile archives are refused whole', () => {
  const entry = (name: string, v: unknown) => tarEntry(name, Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)));
  const manifest = entry('manifest.json', { format: 'agent-desk-export', version: 1 });
  const cases: [string, () => Buffer][] = [
    ['not a tar', () => Buffer.from('hello, this is not a tar archive at all')],
    ['empty', () => Buffer.alloc(0)],
    ['cut short', () => archive.subarray(0, Math.floor(archive.length / 2))],
    ['no end marker', () => archive.subarray(0, archive.length - 1024)],
    [
      'a bad header checksum',
      () => {
        const b = Buffer.from(archive);
        b[0] ^= 0xff;
        return b;
      },
    ],
    ['no manifest', () => Buffer.concat([entry('agents.json', []), tarEnd()])],
    ['a foreign format', () => Buffer.concat([entry('manifest.json', { format: 'zip-bomb', version: 1 }), tarEnd()])],
    ['a future version', () => Buffer.concat([entry('manifest.json', { format: 'agent-desk-export', version: 99 }), tarEnd()])],
    ['a memory in a collection that is not there', () => Buffer.concat([manifest, entry('memories.json', [{ id: 1, collection_id: 7, memory: 'x' }]), tarEnd()])],
    ['a webhook to file://', () => Buffer.concat([manifest, entry('agents.json', [{ id: 1, title: 'a', type: 'chat', slug: 'a' }]), entry('webhooks.json', [{ id: 1, agent_id: 1, url: 'file:///etc/passwd', method: 'POST', secret: 's' }]), tarEnd()])],
    ['a file without its bytes', () => Buffer.concat([manifest, entry('files.json', [{ id: 3, filename: 'a.txt', bytes: 1, sha256: 'x' }]), tarEnd()])],
    ['bytes that do not match their checksum', () => Buffer.concat([manifest, entry('files.json', [{ id: 3, filename: 'a.txt', ext: 'txt', kind: 'text', bytes: 3, sha256: '0'.repeat(64), status: 'waiting', created_at: 1, updated_at: 1 }]), entry('files/3', 'abc'), tarEnd()])],
    ['tables that are not lists of rows', () => Buffer.concat([manifest, entry('agents.json', { id: 1 }), tarEnd()])],
    ['nested values in a row', () => Buffer.concat([manifest, entry('agents.json', [{ id: 1, title: { $gt: '' } }]), tarEnd()])],
    ['a row the schema refuses (last, after others went in)', () => Buffer.concat([manifest, entry('memory_collections.json', [{ id: 1, name: 'imported', created_at: 1, updated_at: 1 }]), entry('memories.json', [{ id: 1, collection_id: 1, memory: 'x', created_at: 1, updated_at: 1 }]), entry('agents.json', [{ id: 1, title: 'bad', type: 'bogus', slug: 'bad', created_at: 1, updated_at: 1 }]), tarEnd()])],
    ['path names aimed outside', () => Buffer.concat([entry('../../escape.json', []), entry('/etc/passwd', 'x'), manifest, tarEnd()])],
  ];

  it.each(cases)('%s: 422 with a reason, nothing written', async (_name, make) => {
    const dst = fresh();
    try {
      // Background embedding writes its own settings row when it first completes: let it settle first.
      await dst.services.retrieval.idle();
      const before = digestTables(dst.db);
      const filesBefore = fs.readdirSync(path.join(dst.dir, 'files')).sort();
      const r = await importTar(dst, make());
      if (_name === 'path names aimed outside') {
        // The foreign entries are ignored (never paths); the rest is a valid empty export.
        expect(r.status, r.text).toBe(200);
        expect(fs.existsSync(path.join(dst.dir, '..', 'escape.json'))).toBe(false);
        return;
      }
      expect(r.status, r.text).toBe(422);
      expect(Object.keys(r.json).sort()).toEqual(['errors', 'message']);
      expect(r.json.errors.archive[0]).toBe(r.json.message);
      await dst.services.retrieval.idle();
      expect(changedTables(before, digestTables(dst.db))).toEqual([]);
      expect(fs.readdirSync(path.join(dst.dir, 'files')).sort()).toEqual(filesBefore);
      expect(fs.readdirSync(path.join(dst.dir, 'files', 'tmp'))).toEqual([]);
    } finally {
      await dst.close();
    }
  });

  it('an upload that is not multipart, or has no archive field, is 422; an oversized one is 413', async () => {
    const dst = makePlatform({ env: {}, maxUploadBytes: 64 * 1024 });
    dirs.push(dst.dir);
    try {
      const r1 = await call(dst, 'POST', '/api/import', { body: { archive: 'x' } });
      expect(r1.status).toBe(422);
      expect((await importTar(dst, archive, 'other')).status).toBe(422);
      const big = await importTar(dst, Buffer.alloc(200 * 1024));
      expect(big.status).toBe(413);
      expect(fs.readdirSync(path.join(dst.dir, 'files', 'tmp'))).toEqual([]);
    } finally {
      await dst.close();
    }
  });
});
