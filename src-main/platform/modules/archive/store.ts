import type { Statement } from 'better-sqlite3';
import type { DB } from '../../db/connection.js';
import { statements } from '../../db/statements.js';

export interface ExportScope {
  userId: number;
  workspaceId: number;
}

/** A row as the database holds it, every column (columns later migrations add travel too). */
export type Row = Record<string, unknown>;

export interface ExportTables {
  agents: Row[];
  memory_collections: Row[];
  memories: Row[];
  webhooks: Row[];
  files: Row[];
  file_passages: Row[];
  agent_files: Row[];
}

/*
 * The archive's SQL. Export and import move whole rows of several modules' tables, column by
 * column as this database's schema has them, so the statements depend on the schema at run
 * time: they go through the shared per-database cache (db/statements.ts), prepared once each.
 */

export function hasTable(db: DB, name: string): boolean {
  return !!statements(db)<[string], { ok: number }>("SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = ?").get(name);
}

export function columnsOf(db: DB, table: string): string[] {
  return statements(db)<[], { name: string }>(`PRAGMA table_info("${table}")`)
    .all()
    .map((c) => c.name);
}

const idList = (rows: Row[]) => rows.map((r) => Number(r.id));

/** Reads everything to export in one read transaction: one consistent snapshot. */
export function collectExport(db: DB, scope: ExportScope): ExportTables {
  const sql = statements(db);
  return db.transaction(() => {
    const local = columnsOf(db, 'agents').includes('source') ? " AND source = 'local'" : '';
    const agents = sql<[number], Row>(`SELECT * FROM agents WHERE workspace_id = ?${local} ORDER BY id`).all(scope.workspaceId);
    const agentIds = new Set(idList(agents));
    const memory_collections = sql<[number], Row>('SELECT * FROM memory_collections WHERE user_id = ? ORDER BY id').all(scope.userId);
    const memories = sql<[number], Row>('SELECT * FROM memories WHERE user_id = ? ORDER BY id').all(scope.userId);
    const webhooks = sql<[number], Row>('SELECT * FROM webhooks WHERE user_id = ? AND deleted_at IS NULL ORDER BY id')
      .all(scope.userId)
      .filter((w) => agentIds.has(Number(w.agent_id)));
    const withFiles = hasTable(db, 'files');
    const files = withFiles ? sql<[number], Row>('SELECT * FROM files WHERE workspace_id = ? ORDER BY id').all(scope.workspaceId) : [];
    const fileIds = new Set(idList(files));
    const file_passages =
      withFiles && hasTable(db, 'file_passages') ? sql<[], Row>('SELECT * FROM file_passages ORDER BY id').all().filter((p) => fileIds.has(Number(p.file_id))) : [];
    const agent_files =
      withFiles && hasTable(db, 'agent_files')
        ? sql<[], Row>('SELECT * FROM agent_files')
            .all()
            .filter((l) => agentIds.has(Number(l.agent_id)) && fileIds.has(Number(l.file_id)))
        : [];
    return { agents, memory_collections, memories, webhooks, files, file_passages, agent_files };
  })();
}

/** The ids of every file row (a backup copies their bytes); none when the database predates files. */
export function fileIds(db: DB): number[] {
  return hasTable(db, 'files') ? statements(db)<[], { id: number }>('SELECT id FROM files ORDER BY id').all().map((r) => r.id) : [];
}

/** Whether the database holds any agent: an import into one that holds none is a restore into a new data dir. */
export function holdsAgents(db: DB): boolean {
  return !!statements(db)('SELECT 1 FROM agents LIMIT 1').get();
}

/** The lookups and inserts of an import, run inside its one write transaction. */
export class ImportStore {
  private readonly collectionByNameStmt;
  private readonly slugTakenStmt;
  private readonly templateStmt;
  private readonly cols = new Map<string, string[]>();
  /** Inserts by column list; kept for this import only (rows of one table mostly share one). */
  private readonly inserts = new Map<string, Statement>();

  constructor(private readonly db: DB) {
    this.collectionByNameStmt = db.prepare<[number, string], { id: number }>('SELECT id FROM memory_collections WHERE user_id = ? AND name = ?');
    this.slugTakenStmt = db.prepare<[string], { id: number }>('SELECT id FROM agents WHERE slug = ?');
    this.templateStmt = db.prepare<[string], { id: string }>('SELECT id FROM templates WHERE id = ?');
  }

  /** The id of the user's collection of this name, if any. */
  collectionId(userId: number, name: string): number | undefined {
    return this.collectionByNameStmt.get(userId, name)?.id;
  }

  slugTaken(slug: string): boolean {
    return !!this.slugTakenStmt.get(slug);
  }

  templateExists(id: string): boolean {
    return !!this.templateStmt.get(id);
  }

  /**
   * Inserts a row (new id), the overrides winning; the new id. `row` is one that rows.ts parsed, so
   * it holds only columns its schema lists; of those, only the target table's own are written.
   */
  insert(table: string, row: Row, overrides: Row): number {
    let known = this.cols.get(table);
    if (!known) this.cols.set(table, (known = columnsOf(this.db, table)));
    const values: Row = {};
    for (const c of known) {
      if (c === 'id') continue;
      const v = c in overrides ? overrides[c] : row[c];
      if (v === undefined) continue;
      values[c] = typeof v === 'boolean' ? (v ? 1 : 0) : v;
    }
    const names = Object.keys(values);
    const text = `INSERT INTO "${table}"(${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`;
    let st = this.inserts.get(text);
    if (!st) this.inserts.set(text, (st = this.db.prepare(text)));
    return Number(st.run(...names.map((n) => values[n])).lastInsertRowid);
  }
}
