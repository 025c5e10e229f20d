import fs from 'node:fs';
import path from 'node:path';
import type { DB } from '../../db/connection.js';
import { tarEnd, tarEntry, tarHeader, tarPadding } from './tar.js';
import { collectExport, type ExportScope, type ExportTables, type Row } from './store.js';

export { collectExport, type ExportScope, type ExportTables, type Row } from './store.js';

/**
 * Export of one workspace as one tar (ext `GET /api/export`, `npm run export`): the workspace's
 * local agents and files (with their bytes, passages and links), and the caller's memory
 * collections, memories and live webhooks of those agents. Rows are exported whole (every
 * column), so columns added by later migrations travel too; ids are the source's and are
 * remapped on import.
 */
export const EXPORT_FORMAT = 'agent-desk-export';
export const EXPORT_VERSION = 1;

/**
 * `includeSecrets`: webhook signing secrets, and credentials inside URLs (`user:pw@`), travel only
 * when asked for (`?include_secrets=1`, `--include-secrets`).
 */
export interface ExportOptions {
  includeSecrets?: boolean;
}

export const TABLE_NAMES: (keyof ExportTables)[] = ['agents', 'memory_collections', 'memories', 'webhooks', 'files', 'file_passages', 'agent_files'];

const idList = (rows: Row[]) => rows.map((r) => Number(r.id));

/** A URL without the user name and password it may carry; anything that is not a URL is kept as it is. */
function withoutCredentials(url: unknown): unknown {
  if (typeof url !== 'string') return url;
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}
const json = (v: unknown) => Buffer.from(JSON.stringify(v));

/**
 * The archive as a stream of chunks: file bytes first (each read through a descriptor opened
 * when its turn comes), then the tables and the manifest last, so that a file deleted while the
 * export runs is left out of `files.json` (and its passages and links) instead of breaking the
 * archive.
 */
export async function* exportChunks(db: DB, dataDir: string, scope: ExportScope, opts: ExportOptions = {}): AsyncGenerator<Buffer> {
  const tables = collectExport(db, scope);
  const includeSecrets = opts.includeSecrets === true;
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
    webhooks: includeSecrets ? tables.webhooks : tables.webhooks.map(({ secret: _secret, ...w }) => ({ ...w, url: withoutCredentials(w.url) })),
    files: included,
    file_passages: tables.file_passages.filter((p) => kept.has(Number(p.file_id))),
    agent_files: tables.agent_files.filter((l) => kept.has(Number(l.file_id))),
  };
  for (const t of TABLE_NAMES) yield tarEntry(`${t}.json`, json(out[t]));
  const counts = Object.fromEntries(TABLE_NAMES.map((t) => [t, out[t].length]));
  yield tarEntry('manifest.json', json({ format: EXPORT_FORMAT, version: EXPORT_VERSION, exported_at: new Date().toISOString(), schema_version: schemaVersion, workspace_id: scope.workspaceId, secrets: includeSecrets, counts }));
  yield tarEnd();
}

/** The export as a web stream (HTTP answer). */
export function exportStream(db: DB, dataDir: string, scope: ExportScope, opts: ExportOptions = {}): ReadableStream<Uint8Array> {
  const it = exportChunks(db, dataDir, scope, opts);
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
export async function writeExportFile(db: DB, dataDir: string, scope: ExportScope, out: string, opts: ExportOptions = {}): Promise<{ out: string; bytes: number }> {
  fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  const tmp = `${out}.part`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    for await (const chunk of exportChunks(db, dataDir, scope, opts)) fs.writeSync(fd, chunk);
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
