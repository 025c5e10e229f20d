/**
 * Migrations, generically over the `migrations` list (others add theirs): user_version, refusal
 * of a database from the future, one transaction per migration, and for every migration N:
 * migrate to N-1, seed, migrate to N, and nothing seeded is lost.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DB } from '../../src-main/platform/db/connection.js';
import { DatabaseFromTheFutureError, latestVersion, migrate, type Migration } from '../../src-main/platform/db/migrate.js';
import { migrations } from '../../src-main/platform/db/migrations/index.js';
import { createPlatform } from '../../src-main/platform/platform.js';
import { call, KEY, tempDir } from './helpers.js';

const dirs: string[] = [];
const dbs: DB[] = [];
function freshDb(): { db: DB; dir: string } {
  const dir = tempDir('agent-desk-migrate-');
  dirs.push(dir);
  const db = openDatabase(dir);
  db.function('casefold', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : s));
  dbs.push(db);
  return { db, dir };
}
afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const version = (db: DB) => db.pragma('user_version', { simple: true }) as number;
const integrity = (db: DB) => db.pragma('integrity_check', { simple: true });
const sortedList = [...migrations].sort((a, b) => a.version - b.version);

/** Rows in the tables that exist since migration 1, written with the columns of migration 1. */
function seedCore(db: DB): Record<string, unknown[]> {
  db.exec(`
    INSERT INTO users(id, name, selected_workspace_id, created_at) VALUES (1, 'Me', 1, 1700000000000000);
    INSERT INTO workspaces(id, name, created_at) VALUES (1, 'Personal', 1700000000000000);
    INSERT INTO workspace_members(workspace_id, user_id, role) VALUES (1, 1, 'owner');
    INSERT INTO api_keys(id, user_id, name, prefix, key_hash, created_at) VALUES (7, 1, 'old key', 'ad_abc', 'deadbeef', 1700000000000001);
    INSERT INTO agents(id, workspace_id, title, description, slug, type, questions, instructions, created_by, created_at, updated_at)
      VALUES (41, 1, 'Seeded agent', 'kept across migrations', 'seeded-agent', 'chat', '[]', 'Be kind.', 1, 1700000000000002, 1700000000000003);
    INSERT INTO memory_collections(id, user_id, name, created_at, updated_at) VALUES (5, 1, 'default', 1700000000000004, 1700000000000004);
    INSERT INTO memories(id, user_id, collection_id, memory, credits, created_at, updated_at) VALUES (9, 1, 5, 'seeded memory ✓', 0, 1700000000000005, 1700000000000005);
    INSERT INTO webhooks(id, agent_id, user_id, url, method, status, secret, created_at, updated_at) VALUES (3, 41, 1, 'http://localhost/h', 'POST', 'inactive', 'whsec_x', 1700000000000006, 1700000000000006);
  `);
  return snapshot(db);
}

function snapshot(db: DB): Record<string, unknown[]> {
  return {
    users: db.prepare('SELECT id, name FROM users ORDER BY id').all(),
    api_keys: db.prepare('SELECT id, user_id, name, prefix, key_hash, created_at FROM api_keys ORDER BY id').all(),
    agents: db.prepare('SELECT id, workspace_id, title, description, slug, type, instructions, created_at, updated_at FROM agents ORDER BY id').all(),
    memories: db.prepare('SELECT id, user_id, collection_id, memory, created_at FROM memories ORDER BY id').all(),
    collections: db.prepare('SELECT id, user_id, name FROM memory_collections ORDER BY id').all(),
    webhooks: db.prepare('SELECT id, agent_id, url, status, secret FROM webhooks ORDER BY id').all(),
  };
}

describe('migrations', () => {
  it('the list is numbered: unique, positive versions, each with a name', () => {
    expect(migrations.length).toBeGreaterThan(0);
    const versions = migrations.map((m) => m.version);
    expect(new Set(versions).size).toBe(versions.length);
    for (const m of migrations) {
      expect(Number.isInteger(m.version) && m.version > 0).toBe(true);
      expect(m.name).toMatch(/\S/);
    }
    expect(latestVersion()).toBe(Math.max(...versions));
  });

  it('a new database goes to the newest user_version; running again changes nothing', () => {
    const { db } = freshDb();
    expect(version(db)).toBe(0);
    expect(migrate(db)).toBe(latestVersion());
    expect(version(db)).toBe(latestVersion());
    expect(integrity(db)).toBe('ok');
    const schema = db.prepare("SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all();
    expect(migrate(db)).toBe(latestVersion());
    expect(db.prepare("SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all()).toEqual(schema);
  });

  it('refuses a database from the future, and the platform does not start on it', () => {
    const { db, dir } = freshDb();
    migrate(db);
    const future = latestVersion() + 1;
    db.pragma(`user_version = ${future}`);
    expect(() => migrate(db)).toThrow(DatabaseFromTheFutureError);
    expect(version(db)).toBe(future);
    db.close();
    expect(() => createPlatform({ dataDir: dir })).toThrow(/schema version/);
    // The refusal closed the database: it can be opened again, untouched.
    const again = openDatabase(dir);
    dbs.push(again);
    expect(version(again)).toBe(future);
  });

  it('a failing migration rolls back whole and leaves the previous version', () => {
    const { db } = freshDb();
    const broken: Migration = {
      version: latestVersion() + 1,
      name: 'broken',
      up(d) {
        d.exec('CREATE TABLE half_done (x INTEGER)');
        throw new Error('boom');
      },
    };
    expect(() => migrate(db, { list: [...migrations, broken] })).toThrow('boom');
    expect(version(db)).toBe(latestVersion());
    expect(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'half_done'").get()).toBeUndefined();
  });

  // One case per migration: migrate to the one before it, seed, migrate to it.
  for (let i = 0; i < sortedList.length; i++) {
    const m = sortedList[i];
    const prev = i === 0 ? 0 : sortedList[i - 1].version;
    it(`migration ${m.version} (${m.name}): from ${prev}, seeded, nothing lost`, () => {
      const { db } = freshDb();
      expect(migrate(db, { target: prev })).toBe(prev);
      const before = prev >= 1 ? seedCore(db) : null;
      let backupFrom: number | null = null;
      expect(migrate(db, { target: m.version, beforeMigrate: (from) => (backupFrom = from) })).toBe(m.version);
      expect(version(db)).toBe(m.version);
      expect(backupFrom).toBe(prev >= 1 ? prev : null);
      expect(integrity(db)).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      if (before) expect(snapshot(db)).toEqual(before);
    });
  }

  it('a database seeded at the first version opens in the platform at the newest, with its data', async () => {
    const { db, dir } = freshDb();
    migrate(db, { target: sortedList[0].version });
    seedCore(db);
    db.close();
    const p = createPlatform({ dataDir: dir, envApiKey: KEY });
    try {
      expect(version(p.db)).toBe(latestVersion());
      const agent = await call(p, 'GET', '/api/agents/41');
      expect(agent.status).toBe(200);
      expect(agent.json).toMatchObject({ id: 41, title: 'Seeded agent', description: 'kept across migrations', slug: 'seeded-agent' });
      const mems = await call(p, 'GET', '/api/memories');
      expect(mems.json.memories.map((x: any) => [x.id, x.memory])).toEqual([[9, 'seeded memory ✓']]);
      expect((await call(p, 'GET', '/api/webhooks')).json.data.map((w: any) => [w.id, w.status])).toEqual([[3, 'inactive']]);
    } finally {
      await p.close();
    }
  });
});
