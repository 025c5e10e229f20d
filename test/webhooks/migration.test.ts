import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { openDatabase, type DB } from '../../src-main/platform/db/connection.js';
import { migrate } from '../../src-main/platform/db/migrate.js';
import { tempDir } from '../api/helpers.js';
import { fastPlatform } from './helpers.js';

const dirs: string[] = [];
const dbs: DB[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('migration 004 webhook_deliveries', () => {
  it('migrates a database at version 3 with webhooks and jobs in it, keeping them', () => {
    const dir = tempDir();
    dirs.push(dir);
    const db = openDatabase(dir);
    dbs.push(db);
    expect(migrate(db, { target: 3 })).toBe(3);
    db.exec(`INSERT INTO users(id, name, created_at) VALUES (1, 'me', 0);
      INSERT INTO workspaces(id, name, created_at) VALUES (1, 'Personal', 0);
      INSERT INTO agents(id, workspace_id, title, slug, type, created_by, created_at, updated_at) VALUES (1, 1, 'A', 'a', 'chat', 1, 0, 0);
      INSERT INTO webhooks(id, agent_id, user_id, url, secret, success_count, created_at, updated_at) VALUES (1, 1, 1, 'http://127.0.0.1:9/x', 'whsec_AAAA', 3, 0, 0);
      INSERT INTO jobs(kind, payload, state, run_at, lane, created_at, updated_at) VALUES ('file.process', '{}', 'pending', 0, 'file:1', 0, 0);`);
    expect(migrate(db, { target: 4 })).toBe(4);
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type IN ('table','index') ORDER BY name").all().map((r) => r.name);
    expect(tables).toEqual(expect.arrayContaining(['webhook_events', 'webhook_deliveries', 'webhook_delivery_attempts', 'jobs_kind_lane']));
    expect(db.prepare('SELECT id, success_count FROM webhooks').all()).toEqual([{ id: 1, success_count: 3 }]);
    expect(db.prepare('SELECT kind, lane FROM jobs').all()).toEqual([{ kind: 'file.process', lane: 'file:1' }]);
    // The tables enforce what the service relies on.
    db.exec("INSERT INTO webhook_events(id, message_id, type, body, created_at) VALUES (1, 'msg_a', 'execution.succeeded', '{}', 0)");
    db.exec("INSERT INTO webhook_deliveries(id, webhook_id, event_id, created_at, updated_at) VALUES (1, 1, 1, 0, 0)");
    expect(() => db.exec("INSERT INTO webhook_deliveries(webhook_id, event_id, status, created_at, updated_at) VALUES (1, 1, 'lost', 0, 0)")).toThrow(/CHECK/);
    expect(() => db.exec("INSERT INTO webhook_events(message_id, type, body, created_at) VALUES ('msg_a', 'x', '{}', 0)")).toThrow(/UNIQUE/);
    db.exec('INSERT INTO webhook_delivery_attempts(delivery_id, attempt, latency_ms, created_at) VALUES (1, 1, 5, 0)');
    expect(() => db.exec('INSERT INTO webhook_delivery_attempts(delivery_id, attempt, latency_ms, created_at) VALUES (1, 1, 5, 0)')).toThrow(/UNIQUE/);
    // Deleting a webhook row (an agent deleted for good) takes its deliveries and attempts along.
    db.exec('DELETE FROM webhooks WHERE id = 1');
    expect(db.prepare('SELECT count(*) AS n FROM webhook_delivery_attempts').get()).toEqual({ n: 0 });
  });

  it('prunes old finished deliveries, orphan events and given-up delivery jobs at start, not pending ones', async () => {
    const a = fastPlatform();
    const dir = a.dir;
    dirs.push(dir);
    const hook = a.services.webhooks.create(1, '1', { url: 'http://127.0.0.1:9/x', method: 'POST' });
    const old = 1_000_000; // 1970: far past the 30 days
    a.db.exec(`INSERT INTO webhook_events(id, message_id, type, body, created_at) VALUES (901, 'msg_old', 't', '{}', ${old}), (902, 'msg_new', 't', '{}', ${old});
      INSERT INTO webhook_deliveries(webhook_id, event_id, status, created_at, updated_at) VALUES (${hook.id}, 901, 'succeeded', ${old}, ${old}), (${hook.id}, 902, 'pending', ${old}, ${old});
      INSERT INTO jobs(kind, payload, state, run_at, created_at, updated_at) VALUES ('webhook.delivery', '{}', 'failed', 0, 0, 0), ('file.process', '{}', 'failed', 0, 0, 0);`);
    await a.close();
    const b = fastPlatform({}, dir);
    try {
      expect(b.db.prepare('SELECT event_id, status FROM webhook_deliveries').all()).toEqual([{ event_id: 902, status: 'pending' }]);
      expect(b.db.prepare('SELECT id FROM webhook_events').all()).toEqual([{ id: 902 }]);
      expect(b.db.prepare("SELECT kind FROM jobs WHERE state = 'failed'").all()).toEqual([{ kind: 'file.process' }]);
    } finally {
      await b.close();
    }
  });
});
