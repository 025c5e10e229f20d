import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PLATFORM = path.resolve(import.meta.dirname, '../../src-main/platform');

/**
 * Statements about the database as a whole, not a domain's rows, each matched exactly (any other
 * SQL in these files still fails). Paths are relative to src-main/platform.
 */
const ALLOWED: Record<string, RegExp> = {
  // A backup's VACUUM INTO copies the database file from one read snapshot.
  'modules/archive/backup.ts': /\.prepare\('VACUUM INTO \?'\)/,
  // Opening the database reads its schema once, so a damaged file fails at start, not mid-request.
  'db/connection.ts': /\.prepare\('SELECT count\(\*\) FROM sqlite_master'\)/,
  // The data-dir lock is an EXCLUSIVE transaction held on its own small file (no table, no rows).
  'db/data-dir-lock.ts': /\.exec\('(BEGIN EXCLUSIVE|ROLLBACK)'\)/,
  // The stores' statement cache: it compiles the text a store hands it and holds none of its own.
  'db/statements.ts': /^\s*(export function statements\(db: DB\)|if \(!st\) c\.set\(text, \(st = db\.prepare\(text\)\)\);)/,
};

const isStore = (file: string) => /(^|[-/])store\.ts$/.test(file);

/** A statement being compiled or run, or SQL text in a string. */
const SQL = [/\.prepare\s*[<(]/, /\bstatements\s*\(/, /\.exec\s*\(\s*[`'"]/, /[`'"]\s*(SELECT\s|INSERT\s+(OR\s+\w+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|WITH\s+\w+\s+AS\s)/];

type Source = { name: string; text: string };

const linesOf = (files: Source[], keep: (name: string, line: string) => boolean) =>
  files.flatMap(({ name, text }) =>
    text.split('\n').flatMap((line, i) => (keep(name, line) ? [`${name}:${i + 1}: ${line.trim()}`] : [])),
  );

/** The lines of non-store files that hold SQL, as `file:line: text`. */
export function sqlOutsideStores(files: Source[]): string[] {
  return linesOf(files, (name, line) => !isStore(name) && SQL.some((re) => re.test(line)) && !ALLOWED[name]?.test(line));
}

/** Where passages are written: the one home of that SQL (an archive import inserts whole rows by table name). */
const PASSAGES_HOME = 'ingest/passages-store.ts';
const WRITES_PASSAGES = /\b(INSERT\s+(OR\s+\w+\s+)?INTO|DELETE\s+FROM|UPDATE)\s+file_passages\b/i;

export function passageWritesElsewhere(files: Source[]): string[] {
  return linesOf(files, (name, line) => name !== PASSAGES_HOME && WRITES_PASSAGES.test(line));
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** Every .ts under src-main/platform but the migrations (a migration's SQL is the schema itself). */
function platformFiles(): Source[] {
  return walk(PLATFORM)
    .map((f) => path.relative(PLATFORM, f).split(path.sep).join('/'))
    .filter((name) => name.endsWith('.ts') && !name.startsWith('db/migrations/'))
    .map((name) => ({ name, text: fs.readFileSync(path.join(PLATFORM, name), 'utf8') }));
}

describe('SQL lives in store files', () => {
  it('finds a planted statement in a service or any other folder, and leaves store files alone', () => {
    const service = "export class S {\n  f() {\n    return this.db.prepare('SELECT 1 FROM agents').get();\n  }\n}\n";
    expect(sqlOutsideStores([{ name: 'modules/agents/service.ts', text: service }])).toEqual(["modules/agents/service.ts:3: return this.db.prepare('SELECT 1 FROM agents').get();"]);
    expect(sqlOutsideStores([{ name: 'modules/agents/planted.ts', text: "const q = `SELECT * FROM agents`;\nconst r = sql('x');\nstatements(db)('UPDATE t SET a = 1');\n" }])).toHaveLength(2);
    expect(sqlOutsideStores([{ name: 'modules/agents/store.ts', text: service }, { name: 'modules/executions/sessions-store.ts', text: service }, { name: 'jobs/store.ts', text: service }])).toEqual([]);
    // Outside modules/: the queue, the kernel, the reading process.
    expect(sqlOutsideStores([{ name: 'jobs/queue.ts', text: "this.db.prepare(\"UPDATE jobs SET state = 'failed' WHERE id = ?\").run(id);\n" }])).toHaveLength(1);
    expect(sqlOutsideStores([{ name: 'kernel/planted.ts', text: service }, { name: 'ingest/extract/planted.ts', text: "db.exec('DELETE FROM file_passages');\n" }])).toHaveLength(2);
    // A regular expression's exec is not SQL.
    expect(sqlOutsideStores([{ name: 'modules/usage/service.ts', text: 'const m = /x/.exec(text);\n' }])).toEqual([]);
  });

  it('allows the whole-database statements only, in their own files', () => {
    expect(sqlOutsideStores([{ name: 'db/connection.ts', text: "db.prepare('SELECT count(*) FROM sqlite_master').get();\n" }])).toEqual([]);
    expect(sqlOutsideStores([{ name: 'db/connection.ts', text: "db.prepare('SELECT value FROM settings WHERE key = ?').get(k);\n" }])).toHaveLength(1);
    expect(sqlOutsideStores([{ name: 'db/data-dir-lock.ts', text: "db.exec('BEGIN EXCLUSIVE');\ndb.exec('DELETE FROM jobs');\n" }])).toHaveLength(1);
    expect(sqlOutsideStores([{ name: 'kernel/settings.ts', text: "db.prepare('VACUUM INTO ?').run(f);\n" }])).toHaveLength(1);
  });

  it('holds for every file of the platform', () => {
    const files = platformFiles();
    expect(files.length).toBeGreaterThan(200);
    expect(files.some((f) => f.name === 'jobs/queue.ts')).toBe(true);
    expect(sqlOutsideStores(files)).toEqual([]);
  });
});

describe('passages are written in one place', () => {
  it('finds a planted passage write outside the passage store', () => {
    const write = "this.sql('DELETE FROM file_passages WHERE file_id = ?').run(id);\n";
    expect(passageWritesElsewhere([{ name: 'modules/files/rows-store.ts', text: write }])).toHaveLength(1);
    expect(passageWritesElsewhere([{ name: PASSAGES_HOME, text: write }])).toEqual([]);
    // The full-text index is another table.
    expect(passageWritesElsewhere([{ name: 'modules/files/search-store.ts', text: "sql('DELETE FROM file_passages_fts')\n" }])).toEqual([]);
  });

  it('holds for the platform: the reader and the files module share ingest/passages-store.ts', () => {
    const files = platformFiles();
    expect(passageWritesElsewhere(files)).toEqual([]);
    expect(files.find((f) => f.name === PASSAGES_HOME)?.text).toMatch(WRITES_PASSAGES);
  });
});
