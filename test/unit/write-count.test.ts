import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type DB } from '../../src-main/platform/db/connection.js';
import { writeCounter } from '../../src-main/platform/db/write-count.js';
import { changeStamp, sameStamp } from '../../src-main/platform/db/stamp-store.js';

describe("a connection's count of its writes", () => {
  const open: DB[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  const fresh = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-count-'));
    dirs.push(dir);
    const db = connect(path.join(dir, 'x.sqlite'), { create: true });
    open.push(db);
    return db;
  };

  it('moves with every statement that may change a row, whichever way it runs, and not with reads', () => {
    const db = fresh();
    const count = writeCounter(db)!;
    expect(count).toBeDefined();
    db.exec('CREATE TABLE t (v INTEGER); CREATE TABLE log (v INTEGER); CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.v); END;');
    const moved = (what: string, fn: () => unknown) => {
      const before = count.n;
      fn();
      return [what, count.n > before];
    };
    const select = db.prepare('SELECT v FROM t');
    expect(
      Object.fromEntries([
        moved('run', () => db.prepare('INSERT INTO t VALUES (?)').run(1)),
        moved('get of RETURNING', () => db.prepare('INSERT INTO t VALUES (?) RETURNING v').get(2)),
        moved('all of RETURNING', () => db.prepare('UPDATE t SET v = v + 1 RETURNING v').all()),
        moved('iterate of RETURNING', () => [...db.prepare('DELETE FROM t WHERE v = 3 RETURNING v').iterate()]),
        moved('a plucked statement', () => db.prepare('DELETE FROM log RETURNING v').pluck().all()),
        moved('exec', () => db.exec('DELETE FROM log')),
        moved('inside a transaction', () => db.transaction(() => db.prepare('INSERT INTO t VALUES (9)').run())()),
        moved('a read', () => select.all()),
        moved('a read by get', () => db.prepare('SELECT count(*) FROM t').get()),
        moved('a pragma read', () => db.pragma('user_version', { simple: true })),
      ]),
    ).toEqual({
      run: true,
      'get of RETURNING': true,
      'all of RETURNING': true,
      'iterate of RETURNING': true,
      'a plucked statement': true,
      exec: true,
      'inside a transaction': true,
      'a read': false,
      'a read by get': false,
      'a pragma read': false,
    });
  });

  it("is the stamp's own part: a write moves the stamp, a read does not, and a connection opened elsewhere still asks SQLite", () => {
    const db = fresh();
    db.exec('CREATE TABLE t (v INTEGER)');
    const stamp = changeStamp(db, () => 0);
    const s0 = stamp();
    db.prepare('SELECT * FROM t').all();
    expect(sameStamp(stamp(), s0)).toBe(true);
    db.prepare('INSERT INTO t VALUES (1)').run();
    expect(sameStamp(stamp(), s0)).toBe(false);

    const plain = new Database(':memory:');
    try {
      expect(writeCounter(plain)).toBeUndefined();
      plain.exec('CREATE TABLE t (v INTEGER)');
      const stampOf = changeStamp(plain, () => 0);
      const p0 = stampOf();
      plain.prepare('INSERT INTO t VALUES (1)').run();
      expect(sameStamp(stampOf(), p0)).toBe(false);
    } finally {
      plain.close();
    }
  });
});
