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
import { startFakeOpenAI } from '../fixtures/fake-openai.js';

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

describe('migration 14 (execution roots and parents filled)', () => {
  const m14 = sortedList.find((m) => m.version === 14)!;
  type Row = { id: number; root_id: number | null; parent_id: number | null };

  /** Executions as versions 3 to 13 left them: roots unset on old rows, parents unset before branches. */
  function seedExecutions(db: DB): void {
    const ins = db.prepare(
      "INSERT INTO executions(id, agent_id, user_id, root_id, parent_id, branched, status, input, output, turns, created_at, updated_at) VALUES (?, 41, ?, ?, ?, ?, 'succeeded', ?, 'a', ?, 1700000000000000, 1700000000000000)",
    );
    const turns = (q: string) => JSON.stringify([{ role: 'user', content: q }]);
    // An old conversation: its first row has no root, none has a parent.
    for (const [id, root] of [[10, null], [11, 10], [12, 10]] as const) ins.run(id, 1, root, null, 0, `old ${id}`, turns(`old ${id}`));
    // A conversation from after branches: 22 is an alternative of 21; left as it was.
    for (const [id, parent] of [[20, null], [21, 20], [22, 20]] as const) ins.run(id, 1, 20, parent, 1, `new ${id}`, turns(`new ${id}`));
    // Begun before branches, continued after: 31 followed 30; 32 is a branched alternative of 31.
    ins.run(30, 1, null, null, 0, 'mixed 30', turns('mixed 30'));
    ins.run(31, 1, 30, null, 0, 'mixed 31', turns('mixed 31'));
    ins.run(32, 1, 30, 30, 1, 'mixed 32', turns('mixed 32'));
    // A one-turn session without a root, and another user's execution between two of user 1's.
    ins.run(40, 1, null, null, 0, 'single', turns('single'));
    db.exec("INSERT INTO users(id, name, selected_workspace_id, created_at) VALUES (2, 'Other', 1, 1700000000000000)");
    ins.run(41, 2, 10, null, 0, 'other user', turns('other user'));
    ins.run(42, 1, 10, null, 0, 'old 42', turns('old 42'));
  }

  it('fills root_id and parent_id of old rows, drops the branched flag, and a row written without a root is its own', () => {
    const { db } = freshDb();
    migrate(db, { target: m14.version - 1 });
    seedCore(db);
    seedExecutions(db);
    expect(migrate(db, { target: m14.version })).toBe(m14.version);
    const rows = db.prepare('SELECT id, root_id, parent_id FROM executions ORDER BY id').all() as Row[];
    expect(rows).toEqual([
      { id: 10, root_id: 10, parent_id: null },
      { id: 11, root_id: 10, parent_id: 10 },
      { id: 12, root_id: 10, parent_id: 11 },
      { id: 20, root_id: 20, parent_id: null },
      { id: 21, root_id: 20, parent_id: 20 },
      { id: 22, root_id: 20, parent_id: 20 },
      { id: 30, root_id: 30, parent_id: null },
      { id: 31, root_id: 30, parent_id: 30 },
      { id: 32, root_id: 30, parent_id: 30 },
      { id: 40, root_id: 40, parent_id: null },
      { id: 41, root_id: 10, parent_id: null },
      { id: 42, root_id: 10, parent_id: 12 },
    ]);
    expect((db.prepare('PRAGMA table_info(executions)').all() as { name: string }[]).map((c) => c.name)).not.toContain('branched');
    const id = Number(
      db.prepare("INSERT INTO executions(agent_id, user_id, status, created_at, updated_at) VALUES (41, 1, 'running', 1, 1)").run().lastInsertRowid,
    );
    expect(db.prepare('SELECT root_id, parent_id FROM executions WHERE id = ?').get(id)).toEqual({ root_id: id, parent_id: null });
    expect(integrity(db)).toBe('ok');
  });

  it('the platform shows an old conversation as the chain it was, and continues it after its last turn', async () => {
    const { db, dir } = freshDb();
    migrate(db, { target: m14.version - 1 });
    seedCore(db);
    seedExecutions(db);
    db.close();
    const fake = await startFakeOpenAI({ reply: 'continued' });
    const env = { AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_OLLAMA_AUTODETECT: '0' };
    const p = createPlatform({ dataDir: dir, envApiKey: KEY, env });
    try {
      const body = { temperature: '0.5', model: 'gpt-4o-mini', tools: 'no-tools', root_id: 10, messages: [{ role: 'user', content: 'next' }], wait_execution: true };
      const next = await call(p, 'POST', '/api/agents/41/execute', { body });
      expect(next.status, next.text).toBe(200);
      expect(next.json.responses[0]).toMatchObject({ status: 'succeeded', root_id: 10 });
      // The model got the old chain (the other user's row is not part of it), then the new message.
      expect(fake.prompts().at(-1)!.filter((m: any) => m.role !== 'system').map((m: any) => m.content)).toEqual(['old 10', 'a', 'old 11', 'a', 'old 12', 'a', 'old 42', 'a', 'next']);

      const s = await call(p, 'GET', '/api/sessions/10');
      expect(s.status).toBe(200);
      expect(s.json.executions.map((e: any) => [e.id, e.root_id, e.parent_id])).toEqual([
        [10, 10, null],
        [11, 10, 10],
        [12, 10, 11],
        [42, 10, 12],
        [next.json.responses[0].id, 10, 42],
      ]);
      const single = await call(p, 'GET', `/api/agent-responses/40`);
      expect(single.json.root_id).toBe(40);
      const list = await call(p, 'GET', '/api/sessions?per_page=50');
      expect(list.json.data.map((x: any) => x.id).sort((a: number, b: number) => a - b)).toEqual([10, 20, 30, 40]);
    } finally {
      await p.close();
      await fake.close();
    }
  });
});
