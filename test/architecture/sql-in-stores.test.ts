import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULES = path.resolve(import.meta.dirname, '../../src-main/platform/modules');

/**
 * Modules whose SQL all lives in store files (`store.ts`, `*-store.ts`), and single files of
 * other modules already cleared. Modules not listed still keep some SQL beside their services;
 * add them here as they move.
 */

/** Whole-database statements, not a domain's SQL: a backup's VACUUM INTO copies the database file. */
const ALLOWED: Record<string, RegExp> = {
  'archive/backup.ts': /\.prepare\('VACUUM INTO \?'\)/,
};

const isStore = (file: string) => /(^|[-/])store\.ts$/.test(file);

/** A statement being compiled or run, or SQL text in a string. */
const SQL = [/\.prepare\s*[<(]/, /\bstatements\s*\(/, /\.exec\s*\(\s*[`'"]/, /[`'"]\s*(SELECT\s|INSERT\s+(OR\s+\w+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|WITH\s+\w+\s+AS\s)/];

/** The lines of non-store files that hold SQL, as `file:line: text`. */
export function sqlOutsideStores(files: { name: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const { name, text } of files) {
    if (isStore(name)) continue;
    text.split('\n').forEach((line, i) => {
      if (SQL.some((re) => re.test(line)) && !ALLOWED[name]?.test(line)) out.push(`${name}:${i + 1}: ${line.trim()}`);
    });
  }
  return out;
}

function clearedFiles(): { name: string; text: string }[] {
  const names = fs
    .readdirSync(MODULES)
    .flatMap((m) =>
      fs
        .readdirSync(path.join(MODULES, m))
        .filter((f) => f.endsWith('.ts'))
        .map((f) => `${m}/${f}`),
    );
  return names.map((name) => ({ name, text: fs.readFileSync(path.join(MODULES, name), 'utf8') }));
}

describe('SQL lives in store files', () => {
  it('finds a planted statement in a service, and leaves store files alone', () => {
    const service = "export class S {\n  f() {\n    return this.db.prepare('SELECT 1 FROM agents').get();\n  }\n}\n";
    expect(sqlOutsideStores([{ name: 'agents/service.ts', text: service }])).toEqual(["agents/service.ts:3: return this.db.prepare('SELECT 1 FROM agents').get();"]);
    expect(sqlOutsideStores([{ name: 'agents/planted.ts', text: "const q = `SELECT * FROM agents`;\nconst r = sql('x');\nstatements(db)('UPDATE t SET a = 1');\n" }])).toHaveLength(2);
    expect(sqlOutsideStores([{ name: 'agents/store.ts', text: service }, { name: 'executions/sessions-store.ts', text: service }])).toEqual([]);
    // A regular expression's exec is not SQL.
    expect(sqlOutsideStores([{ name: 'app/usage.ts', text: 'const m = /x/.exec(text);\n' }])).toEqual([]);
  });

  it('holds for the modules already moved', () => {
    const files = clearedFiles();
    expect(files.length).toBeGreaterThan(20);
    expect(sqlOutsideStores(files)).toEqual([]);
  });
});
