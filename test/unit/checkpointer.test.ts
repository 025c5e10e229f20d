import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DB } from '../../src-main/platform/db/connection.js';
import { startCheckpointer } from '../../src-main/platform/db/checkpointer.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';
import { tempDir } from '../api/helpers.js';
import { until } from '../fixtures/until.js';

const log = createLogger('silent');
const open: DB[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function database(): { db: DB; file: string } {
  const dir = tempDir('agent-desk-checkpoint-');
  dirs.push(dir);
  const db = openDatabase(dir);
  open.push(db);
  db.exec('CREATE TABLE blobs(id INTEGER PRIMARY KEY, data BLOB)');
  return { db, file: db.name };
}

/** About `mb` MB of incompressible rows, in small commits like the platform's. */
function write(db: DB, mb: number): void {
  const ins = db.prepare('INSERT INTO blobs(data) VALUES (?)');
  for (let i = 0; i < mb * 16; i++) db.transaction(() => ins.run(Buffer.alloc(64 * 1024, i % 251)))();
}

const autoPages = (db: DB) => db.pragma('wal_autocheckpoint', { simple: true }) as number;

describe('WAL checkpoints run in a thread, not in the commits of the main connection', () => {
  it('turns the automatic checkpoint off once the thread runs, and the thread moves the WAL into the database file', async () => {
    const { db, file } = database();
    const cp = startCheckpointer(db, log, { everyMs: 20 });
    await until('the checkpoint thread to be ready', () => cp.state === 'active');
    expect(autoPages(db)).toBe(0);
    const before = fs.statSync(file).size;
    write(db, 6);
    // Nothing on the main connection copies pages any more: the file grows only by the thread's checkpoints.
    await until('the database file to hold the rows', () => fs.statSync(file).size >= before + 6 * 1024 * 1024);
    await cp.stop();
    expect(cp.state).toBe('stopped');
    expect(autoPages(db)).toBe(1000);
    expect((db.prepare('SELECT count(*) AS n FROM blobs').get() as { n: number }).n).toBe(96);
  });

  it('without the thread, the automatic checkpoint stays on (a WAL never grows without bound)', async () => {
    const { db, file } = database();
    // The thread opens the file by name: gone, it fails to start, and the main connection keeps its checkpoints.
    fs.rmSync(file);
    const cp = startCheckpointer(db, log, { everyMs: 20 });
    await until('the thread to have failed', () => cp.state === 'failed');
    expect(autoPages(db)).toBe(1000);
    write(db, 1);
    await cp.stop();
  });
});
