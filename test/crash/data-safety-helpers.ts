import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { BASE, KEY } from '../api/helpers.js';
import type { Platform } from '../../src-main/platform/platform.js';
import { limit } from '../fixtures/until.js';
import { upload } from '../files/helpers.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Runs one of the package's TypeScript entry points as `npm run X --` does, in one node process with
 * the tsx loader (the tsx CLI would start a second one), bounded by a scaled safety net.
 */
export function runCli(script: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, script), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: limit(90_000),
    env: { ...process.env, AGENT_DESK_LOG_LEVEL: 'silent', ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, error: r.error };
}

/** Multipart uploads through app.request: the files tests' helper. */
export { upload };

export async function exportTar(p: Platform, query = ''): Promise<Buffer> {
  const res = await p.app.request(`${BASE}/api/export${query}`, { headers: { host: '127.0.0.1:8787', authorization: `Bearer ${KEY}` } });
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

/** POST /api/import: the same multipart path as a file upload, to another URL and field. */
export function importTar(p: Platform, tar: Buffer | Uint8Array, field = 'archive') {
  return upload(p, 'export.tar', tar, { url: '/api/import', field });
}

/** What a user sees of their data, without ids, slugs or timestamps that an import renews. */
export function userView(p: Platform) {
  const db = p.db;
  const agents = db
    .prepare("SELECT id, title, description, long_description, type, questions, instructions, visibility, active FROM agents WHERE source = 'local' ORDER BY title, instructions")
    .all() as any[];
  const titleOf = new Map(agents.map((a) => [a.id, a.title]));
  const files = db.prepare('SELECT id, filename, bytes, sha256, status, credits, passages FROM files ORDER BY filename, sha256').all() as any[];
  const nameOf = new Map(files.map((f) => [f.id, f.filename]));
  const links = (db.prepare('SELECT agent_id, file_id FROM agent_files').all() as any[]).map((l) => `${titleOf.get(l.agent_id)} <- ${nameOf.get(l.file_id)}`).sort();
  const passages = (db.prepare('SELECT f.filename, p.ordinal, p.text FROM file_passages p JOIN files f ON f.id = p.file_id ORDER BY f.filename, p.ordinal').all() as any[]).map((x) => `${x.filename}#${x.ordinal}:${x.text}`);
  const memories = (db.prepare('SELECT m.memory, c.name FROM memories m JOIN memory_collections c ON c.id = m.collection_id ORDER BY m.memory').all() as any[]).map((m) => `${m.name}: ${m.memory}`);
  const collections = (db.prepare('SELECT name FROM memory_collections ORDER BY name').all() as any[]).map((c) => c.name);
  const webhooks = (db.prepare('SELECT w.url, w.status, w.secret, a.title FROM webhooks w JOIN agents a ON a.id = w.agent_id WHERE w.deleted_at IS NULL ORDER BY w.url').all() as any[]).map((w) => `${w.title} ${w.url} ${w.status} ${w.secret}`);
  return {
    agents: agents.map(({ id: _id, ...rest }) => rest),
    files: files.map(({ id: _id, ...rest }) => rest),
    links,
    passages,
    memories,
    collections,
    webhooks,
  };
}
