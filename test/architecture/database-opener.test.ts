import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, openDatabase, type DB } from '../../src-main/platform/db/connection.js';
import { migrate } from '../../src-main/platform/db/migrate.js';
import { ExecutionsStore } from '../../src-main/platform/modules/executions/store.js';
import { tempDir } from '../api/helpers.js';
import { linesWhere, sourcesUnder, type Source } from './sources.js';

const OPENER = 'src-main/platform/db/connection.ts';

/** Opening SQLite, or setting a connection's pragmas, anywhere but the one opener. */
const OPENS = [/\bnew\s+Database\s*\(/, /require\(\s*['"]better-sqlite3['"]\s*\)/, /^\s*import\s+(?!type\b)\w+.*from\s+['"]better-sqlite3['"]/, /\.pragma\(\s*[`'"]\s*(foreign_keys|busy_timeout|synchronous|journal_mode)\b/];

export function databaseOpenersElsewhere(files: Source[]): string[] {
  return linesWhere(files, (name, line) => name !== OPENER && OPENS.some((re) => re.test(line)));
}

const dirs: string[] = [];
const open: DB[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('one database opener (db/connection.ts)', () => {
  it('finds a planted connection, driver import or pragma outside the opener, and none in it', () => {
    const planted = "import Database from 'better-sqlite3';\nconst db = new Database(file);\ndb.pragma('busy_timeout = 10000');\nconst D = require('better-sqlite3');\n";
    expect(databaseOpenersElsewhere([{ name: 'src-main/platform/ingest/worker.ts', text: planted }])).toHaveLength(4);
    expect(databaseOpenersElsewhere([{ name: 'src-main/platform/db/checkpointer.ts', text: "const W = `const db = new Database(workerData.file);`;\n" }])).toHaveLength(1);
    expect(databaseOpenersElsewhere([{ name: OPENER, text: planted }])).toEqual([]);
    // Types and other pragmas are not an opening.
    expect(databaseOpenersElsewhere([{ name: 'src-main/platform/db/statements.ts', text: "import type { Statement } from 'better-sqlite3';\ndb.pragma('user_version', { simple: true });\n" }])).toEqual([]);
  });

  it('holds for all of src-main', () => {
    const files = sourcesUnder('src-main');
    expect(files.length).toBeGreaterThan(200);
    expect(databaseOpenersElsewhere(files)).toEqual([]);
  });

  it('gives every connection the same pragmas: the platform, the progress connection and a second one', () => {
    const dir = tempDir('agent-desk-opener-');
    dirs.push(dir);
    const db = openDatabase(dir, 'normal');
    open.push(db);
    migrate(db);
    const store = new ExecutionsStore(db);
    const fast = (store as unknown as { fast: DB }).fast;
    open.push(fast);
    const other = connect(path.join(dir, 'agent-desk.sqlite'));
    open.push(other);
    const pragmas = (c: DB) => ({
      journal: c.pragma('journal_mode', { simple: true }),
      sync: c.pragma('synchronous', { simple: true }),
      fk: c.pragma('foreign_keys', { simple: true }),
      busy: c.pragma('busy_timeout', { simple: true }),
    });
    expect(fast).not.toBe(db);
    expect(pragmas(db)).toEqual({ journal: 'wal', sync: 1, fk: 1, busy: 5000 });
    expect(pragmas(fast)).toEqual(pragmas(db));
    expect(pragmas(other)).toEqual(pragmas(db));
  });
});
