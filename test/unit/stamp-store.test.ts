import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, DATABASE_FILE, type DB } from '../../src-main/platform/db/connection.js';
import { changeStamp, OTHERS_RECHECK_MS, sameStamp } from '../../src-main/platform/db/stamp-store.js';
import { closePlatform, makePlatform } from '../api/helpers.js';
import { until } from '../fixtures/until.js';

describe('the database stamp that caches of hot reads check', () => {
  const open: DB[] = [];
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
  });

  it("changes at once with this connection's writes, and with another connection's commit once the recheck time has passed", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stamp-'));
    const file = path.join(dir, 'x.sqlite');
    const a = connect(file, { create: true });
    const b = connect(file);
    open.push(a, b);
    a.exec('CREATE TABLE t (v INTEGER)');
    let now = 0;
    const stamp = changeStamp(a, () => now);
    const s0 = stamp();
    expect(sameStamp(stamp(), s0)).toBe(true);
    a.prepare('INSERT INTO t VALUES (1)').run();
    const s1 = stamp();
    expect(sameStamp(s1, s0)).toBe(false);
    b.prepare('INSERT INTO t VALUES (2)').run();
    // Within the recheck time the other connection's commit is not looked for yet...
    expect(sameStamp(stamp(), s1)).toBe(true);
    now += OTHERS_RECHECK_MS;
    // ...after it, it is.
    expect(sameStamp(stamp(), s1)).toBe(false);
  });

  it('a cached agent is read again once another connection changed it', async () => {
    const p = makePlatform();
    try {
      expect(p.services.agents.get(1, 1).title).not.toBe('Renamed elsewhere');
      const other = connect(path.join(p.dir, DATABASE_FILE));
      open.push(other);
      other.prepare('UPDATE agents SET title = ?, updated_at = updated_at + 1 WHERE id = 1').run('Renamed elsewhere');
      await until('the other connection\'s title', () => p.services.agents.get(1, 1).title === 'Renamed elsewhere');
      // And this connection's own write is seen by the very next read.
      p.db.prepare('UPDATE agents SET title = ?, updated_at = updated_at + 1 WHERE id = 1').run('Renamed here');
      expect(p.services.agents.get(1, 1).title).toBe('Renamed here');
    } finally {
      await closePlatform(p);
    }
  });
  it("an agent found by its slug, or no agent for a name, follows this connection's writes at once and another connection's after the recheck", async () => {
    const p = makePlatform();
    try {
      const chat = p.services.agents.findBySlug(1, 'chat')!;
      expect(p.services.agents.findBySlug(1, 'chat')).toBe(chat);
      expect(p.services.agents.findBySlug(1, 'helper-bot')).toBeNull();
      // This connection's write: the very next lookup sees it (a name that found nothing now finds the agent).
      p.db.prepare("UPDATE agents SET slug = 'helper-bot', updated_at = updated_at + 1 WHERE id = ?").run(chat.id);
      expect(p.services.agents.findBySlug(1, 'helper-bot')?.id).toBe(chat.id);
      expect(p.services.agents.findBySlug(1, 'chat')).toBeNull();
      // Another connection's: seen once the recheck time has passed.
      const other = connect(path.join(p.dir, DATABASE_FILE));
      open.push(other);
      other.prepare("UPDATE agents SET slug = 'chat', title = 'Back', updated_at = updated_at + 1 WHERE id = ?").run(chat.id);
      await until("the other connection's slug", () => p.services.agents.findBySlug(1, 'chat')?.title === 'Back');
      expect(p.services.agents.findBySlug(1, 'helper-bot')).toBeNull();
    } finally {
      await closePlatform(p);
    }
  });
});
