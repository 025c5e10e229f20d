import fs from 'node:fs';
import path from 'node:path';
import type { DB } from '../../db/connection.js';
import { tarEnd, tarEntry, tarHeader, tarPadding } from './tar.js';

/**
 * Export of one workspace as one tar (ext `GET /api/export`, `npm run export`): the workspace's
 * local agents and files (with their bytes, passages and links), and the caller's memory
 * collections, memories and live webhooks of those agents. Rows are exported whole (every
 * column), so columns added by later migrations travel too; ids are the source's and are
 * remapped on import.
 */
export const EXPORT_FORMAT = 'agent-desk-export';
export const EXPORT_VERSION = 1;

export interface ExportScope {
  userId: number;
  workspaceId: number;
}

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

export const TABLE_NAMES: (keyof ExportTables)[] = ['agents', 'memory_collections', 'memories', 'webhooks', 'files', 'file_passages', 'agent_files'];

export function hasTable(db: DB, name: string): boolean {
  return !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name);
}

export function columnsOf(db: DB, table: string): string[] {
  return db
    .prepare<[], { name: string }>(`PRAGMA table_info("${table}")`)
    .all()
    .map((c) => c.name);
}

const idList = (rows: Row[]) => rows.map((r) => Number(r.id));

/** Reads everything to export in one read transaction: one consistent snapshot. */
export function collectExport(db: DB, scope: ExportScope): ExportTables {
  return db.transaction(() => {
    const local = columnsOf(db, 'agents').includes('source') ? " AND source = 'local'" : '';
    const agents = db.prepare(`SELECT * FROM agents WHERE workspace_id = ?${local} ORDER BY id`).all(scope.workspaceId) as Row[];
    const agentIds = new Set(idList(agents));
    const memory_collections = db.prepare('SELECT * FROM memory_collections WHERE user_id = ? ORDER BY id').all(scope.userId) as Row[];
    const memories = db.prepare('SELECT * FROM memories WHERE user_id = ? ORDER BY id').all(scope.userId) as Row[];
    const webhooks = (db.prepare('SELECT * FROM webhooks WHERE user_id = ? AND deleted_at IS NULL ORDER BY id').all(scope.userId) as Row[]).filter((w) =>
      agentIds.has(Number(w.agent_id)),
    );
    const withFiles = hasTable(db, 'files');
    const files = withFiles ? (db.prepare('SELECT * FROM files WHERE workspace_id = ? ORDER BY id').all(scope.workspaceId) as Row[]) : [];
    const fileIds = new Set(idList(files));
    const file_passages =
      withFiles && hasTable(db, 'file_passages')
        ? (db.prepare('SELECT * FROM file_passages ORDER BY id').all() as Row[]).filter((p) => fileIds.has(Number(p.file_id)))
        : [];
    const agent_files =
      withFiles && hasTable(db, 'agent_files')
        ? (db.prepare('SELECT * FROM agent_files').all() as Row[]).filter((l) => agentIds.has(Number(l.agent_id)) && fileIds.has(Number(l.file_id)))
        : [];
    return { agents, memory_collections, memories, webhooks, files, file_passages, agent_files };
  })();
}

const json = (v: unknown) => Buffer.from(JSON.stringify(v));

/**
 * The archive as a stream of chunks: file bytes first (each read through a descriptor opened
 * when its turn comes), then the tables and the manifest last, so that a file deleted while the
 * export runs is left out of `files.json` (and its passages and links) instead of breaking the
 * archive.
 */
export async function* exportChunks(db: DB, dataDir: string, scope: ExportScope): AsyncGenerator<Buffer> {
  const tables = collectExport(db, scope);
  const schemaVersion = db.pragma('user_version', { simple: true }) as number;
  const included: Row[] = [];
  for (const f of tables.files) {
    let fd: number;
    try {
      fd = fs.openSync(path.join(dataDir, 'files', String(Number(f.id))), 'r');
    } catch {
      continue; // deleted meanwhile: not exported
    }
    try {
      const size = fs.fstatSync(fd).size;
      yield tarHeader(`files/${Number(f.id)}`, size);
      let done = 0;
      while (done < size) {
        const chunk = Buffer.alloc(Math.min(256 * 1024, size - done));
        const n = fs.readSync(fd, chunk, 0, chunk.length, done);
        if (n <= 0) throw new Error(`file ${String(f.id)} shrank during the export`);
        done += n;
        yield n === chunk.length ? chunk : chunk.subarray(0, n);
      }
      yield tarPadding(size);
      included.push({ ...f, bytes: size });
    } finally {
      fs.closeSync(fd);
    }
  }
  const kept = new Set(idList(included));
  const out: ExportTables = {
    ...tables,
    files: included,
    file_passages: tables.file_passages.filter((p) => kept.has(Number(p.file_id))),
    agent_files: tables.agent_files.filter((l) => kept.has(Number(l.file_id))),
  };
  for (const t of TABLE_NAMES) yield tarEntry(`${t}.json`, json(out[t]));
  const counts = Object.fromEntries(TABLE_NAMES.map((t) => [t, out[t].length]));
  yield tarEntry('manifest.json', json({ format: EXPORT_FORMAT, version: EXPORT_VERSION, exported_at: new Date().toISOString(), schema_version: schemaVersion, workspace_id: scope.workspaceId, counts }));
  yield tarEnd();
}

/** The export as a web stream (HTTP answer). */
export function exportStream(db: DB, dataDir: string, scope: ExportScope): ReadableStream<Uint8Array> {
  const it = exportChunks(db, dataDir, scope);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await it.next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      } catch (err) {
        controller.error(err);
      }
    },
    async cancel() {
      await it.return(undefined);
    },
  });
}

/** The export written to a file (CLI): by temp name, fsynced, renamed. */
export async function writeExportFile(db: DB, dataDir: string, scope: ExportScope, out: string): Promise<{ out: string; bytes: number }> {
  fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  const tmp = `${out}.part`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    for await (const chunk of exportChunks(db, dataDir, scope)) fs.writeSync(fd, chunk);
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  fs.renameSync(tmp, out);
  return { out, bytes: fs.statSync(out).size };
}
