import crypto from 'node:crypto';
import type Database from 'better-sqlite3';

/** Real tables of the database (virtual FTS tables are skipped: their shadow tables hold their data). */
export function tablesOf(db: Database.Database): string[] {
  return db
    .prepare<[], { name: string; sql: string | null }>("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .filter((t) => !/^\s*CREATE\s+VIRTUAL/i.test(t.sql ?? ''))
    .map((t) => t.name);
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** One hash per table over every row (rows sorted by their serialised form, so row order does not matter). */
export function digestTables(db: Database.Database, skip: ReadonlySet<string> = new Set()): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of tablesOf(db)) {
    if (skip.has(t)) continue;
    const rows = db
      .prepare(`SELECT * FROM ${quote(t)}`)
      .raw()
      .all()
      .map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)))
      .sort();
    const h = crypto.createHash('sha256');
    for (const r of rows) h.update(r).update('\n');
    out[t] = `${rows.length}:${h.digest('hex').slice(0, 16)}`;
  }
  return out;
}

/** Names of tables whose digest differs. */
export function changedTables(a: Record<string, string>, b: Record<string, string>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
}
