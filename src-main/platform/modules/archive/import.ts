import crypto from 'node:crypto';
import { Worker } from 'node:worker_threads';
import fs from 'node:fs';
import path from 'node:path';
import type { DB } from '../../db/connection.js';
import { BadArchiveError, copyEntryTo, indexTar, readEntry, type TarIndexEntry } from './tar.js';
import { EXPORT_FORMAT, EXPORT_VERSION, TABLE_NAMES } from './service.js';
import { hasTable, ImportStore, type ExportScope, type ExportTables, type Row } from './store.js';
import { nowMicros } from '../../kernel/time.js';
import { parseRow } from './rows.js';
import { streamRows, type RowLimits } from './json-rows.js';
import { resolveReferences } from './refs.js';
import { workerEntry } from '../../kernel/worker-entry.js';

/** `name`: the archive's file name, for the collection its memories land in (else the date). */
export interface ImportOptions {
  name?: string;
}

/** Rows imported, per table. */
export type ImportCounts = Record<keyof ExportTables, number>;
/** What an import did: its counts, and one sentence per thing it left out or changed. */
export interface ImportResult {
  imported: ImportCounts;
  notes: string[];
}

const MAX_ENTRIES = 500_000;
/** Per table (CONTRACT.md "Secrets, side effects, files on disk"): rows, JSON bytes, and one row's bytes. */
export const TABLE_LIMITS: RowLimits = { maxRows: 1_000_000, maxBytes: 256 * 1024 * 1024, maxRowBytes: 64 * 1024 * 1024 };
const MAX_MANIFEST_BYTES = 1024 * 1024;
const WORKER_HEAP_MB = 2048;
const ENTRY_NAME = /^(?:(manifest|agents|memory_collections|memories|webhooks|files|file_passages|agent_files)\.json|files\/([1-9]\d{0,15}))$/;

const bad = (message: string) => new BadArchiveError(message);

/** Why a manifest's version is refused, naming what it holds (a version written as text is not version 1). */
function versionRefusal(v: unknown): string {
  if (typeof v === 'number') return `This export has format version ${v}; this Agent Desk reads version ${EXPORT_VERSION}.`;
  if (v === undefined) return `The archive's manifest.json has no version; this Agent Desk reads version ${EXPORT_VERSION}.`;
  return `The archive's manifest.json gives its version as ${typeof v === 'string' ? `the text "${v.slice(0, 40)}"` : JSON.stringify(v).slice(0, 40)}, not a number; this Agent Desk reads version ${EXPORT_VERSION}.`;
}

/**
 * Reads and checks the whole archive before anything is written: every row parsed by its schema,
 * references resolved inside the archive (or dropped, with a note), file sizes and hashes.
 */
function readArchive(fd: number, size: number): { tables: ExportTables; notes: string[]; fileEntries: Map<number, TarIndexEntry> } {
  const entries = indexTar(fd, size, { maxEntries: MAX_ENTRIES });
  const byName = new Map<string, TarIndexEntry>();
  for (const e of entries) {
    if (!ENTRY_NAME.test(e.name)) continue; // anything else is not ours to read, and never becomes a path
    if (byName.has(e.name)) throw bad(`The archive is damaged (${e.name} appears twice).`);
    byName.set(e.name, e);
  }
  const manifestEntry = byName.get('manifest.json');
  if (!manifestEntry) throw bad('This is not an Agent Desk export (no manifest.json).');
  if (manifestEntry.size > MAX_MANIFEST_BYTES) throw bad('The archive is damaged (manifest.json is larger than 1 MB).');
  let manifest: { format?: unknown; version?: unknown } | null;
  try {
    manifest = JSON.parse(readEntry(fd, manifestEntry).toString('utf8')) as { format?: unknown; version?: unknown } | null;
  } catch {
    throw bad('The archive is damaged (manifest.json is not JSON).');
  }
  if (manifest?.format !== EXPORT_FORMAT) throw bad('This is not an Agent Desk export (unknown format).');
  if (manifest?.version !== EXPORT_VERSION) throw bad(versionRefusal(manifest?.version));
  // Each table streamed row by row and each row parsed by the API's own schema as it arrives
  // (rows.ts): the first bad row stops the read, and only what the schemas return is kept (a
  // column they do not list is refused, never copied).
  const parsed = {} as ExportTables;
  for (const t of TABLE_NAMES) {
    const e = byName.get(`${t}.json`);
    const rows: Row[] = (parsed[t] = []);
    if (!e) continue;
    streamRows(fd, e, t, TABLE_LIMITS, (row, i) => {
      const r = parseRow(t, i, row);
      if ('error' in r) throw bad(r.error);
      rows.push(r.row);
    });
  }
  const ids = (rows: Row[]) => new Set(rows.map((r) => Number(r.id)));
  for (const t of ['agents', 'memory_collections', 'memories', 'webhooks', 'files'] as const) {
    if (ids(parsed[t]).size !== parsed[t].length) throw bad(`The archive is damaged (${t}.json holds the same id twice).`);
  }
  const { tables, notes } = resolveReferences(parsed);
  const fileEntries = new Map<number, TarIndexEntry>();
  for (const f of tables.files) {
    const e = byName.get(`files/${Number(f.id)}`);
    if (!e) throw bad(`The archive is damaged (the bytes of file ${Number(f.id)} are missing).`);
    if (typeof f.bytes === 'number' && f.bytes !== e.size) throw bad(`The archive is damaged (file ${Number(f.id)} has ${e.size} bytes, its row says ${f.bytes}).`);
    fileEntries.set(Number(f.id), e);
  }
  return { tables, notes, fileEntries };
}

/**
 * Imports an export archive (a tar on disk) into the caller's user and workspace, as new rows
 * with new ids. All or nothing: the rows go in one transaction; file bytes are copied and hash-
 * checked first, then renamed to their new ids inside that transaction (a crash can leave only
 * unreferenced bytes, never a row without its bytes). A damaged or hostile archive is refused
 * with a reason (BadArchiveError) and changes nothing.
 */
export function importArchive(db: DB, dataDir: string, scope: ExportScope, archive: string, opts: ImportOptions = {}): ImportResult {
  const fd = fs.openSync(archive, 'r');
  const tmpDir = path.join(dataDir, 'files', 'tmp');
  const temps = new Map<number, string>();
  const renamed: string[] = [];
  try {
    const { tables, notes, fileEntries } = readArchive(fd, fs.fstatSync(fd).size);
    if (tables.files.length && !hasTable(db, 'files')) throw bad('This Agent Desk cannot store files yet; the archive holds some.');
    fs.mkdirSync(tmpDir, { recursive: true });
    for (const f of tables.files) {
      const tmp = path.join(tmpDir, `${crypto.randomUUID()}.import.part`);
      temps.set(Number(f.id), tmp);
      const sha = copyEntryTo(fd, fileEntries.get(Number(f.id))!, tmp);
      if (typeof f.sha256 === 'string' && f.sha256 !== sha) throw bad(`The archive is damaged (file ${Number(f.id)} does not match its checksum).`);
    }
    let written: Written;
    try {
      written = db.transaction(() => writeRows(db, dataDir, scope, tables, temps, renamed, opts)).immediate();
    } catch (err) {
      for (const f of renamed) fs.rmSync(f, { force: true });
      if (err instanceof Error && err.name === 'SqliteError') throw bad(`The archive holds data this Agent Desk cannot store (${err.message}).`);
      throw err;
    }
    syncDir(path.join(dataDir, 'files'));
    return { imported: written.count, notes: [...notes, ...importNotes(written)] };
  } finally {
    fs.closeSync(fd);
    for (const t of temps.values()) fs.rmSync(t, { force: true });
  }
}

/** What the import changed on the way in, one sentence each. */
function importNotes({ count: imported, collection }: Written): string[] {
  const notes: string[] = [];
  const n = imported.webhooks;
  if (n) notes.push(`${n === 1 ? 'The webhook arrived' : `The ${n} webhooks arrived`} inactive: turn ${n === 1 ? 'it' : 'each'} on in Webhooks once you trust where ${n === 1 ? 'it sends' : 'they send'} your runs.`);
  if (imported.memories) {
    notes.push(`${imported.memories === 1 ? 'The memory' : `The ${imported.memories} memories`} went into a new collection, "${collection}", not into your default collection; conversations leave ${imported.memories === 1 ? 'it' : 'them'} out until you turn that collection on.`);
  }
  return notes;
}

function syncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Not every platform can fsync a directory; the renames are still atomic.
  }
}

/** A Standard Webhooks secret, as the webhooks module makes them, for a webhook that came without one. */
const newSecret = () => `whsec_${crypto.randomBytes(32).toString('base64')}`;

/** `Imported <archive name or date>`, made unique among the user's collections (`… (2)`). */
function newCollectionName(store: ImportStore, userId: number, archiveName: string | undefined): string {
  const base = `Imported ${archiveName?.trim() ? archiveName.trim().replace(/\.tar$/i, '') : new Date().toISOString().slice(0, 16).replace('T', ' ')}`.slice(0, 240);
  let name = base;
  for (let n = 2; store.collectionId(userId, name) !== undefined; n++) name = `${base} (${n})`;
  return name;
}

/** What the write transaction did: its counts, and the collection the memories went into. */
interface Written {
  count: ImportCounts;
  collection: string | null;
}

function writeRows(db: DB, dataDir: string, scope: ExportScope, t: ExportTables, temps: Map<number, string>, renamed: string[], opts: ImportOptions): Written {
  const now = nowMicros();
  const store = new ImportStore(db);
  const count = {} as ImportCounts;
  for (const n of TABLE_NAMES) count[n] = 0;

  const agentId = new Map<number, number>();
  for (const a of t.agents) {
    const base = typeof a.slug === 'string' && a.slug ? a.slug : 'agent';
    let slug = base;
    for (let n = 2; store.slugTaken(slug); n++) slug = `${base}-${n}`;
    const template = typeof a.template_id === 'string' && store.templateExists(a.template_id) ? a.template_id : null;
    agentId.set(Number(a.id), store.insert('agents', a, { workspace_id: scope.workspaceId, created_by: scope.userId, slug, template_id: template, source: 'local', remote_id: null, remote_synced_at: null, tool_servers: '[]' }));
    count.agents++;
  }

  // Every memory lands in one new collection named after the archive, never in the default one
  // or another the user has: what an archive brings stays apart from what the user wrote, and out
  // of every run's context (in_context 0) until a run names it or the person turns it on.
  let collectionName: string | null = null;
  if (t.memories.length) {
    collectionName = newCollectionName(store, scope.userId, opts.name);
    const collection = store.insert('memory_collections', {}, { user_id: scope.userId, name: collectionName, in_context: 0, created_at: now, updated_at: now });
    count.memory_collections++;
    for (const m of t.memories) {
      store.insert('memories', m, { user_id: scope.userId, collection_id: collection });
      count.memories++;
    }
  }

  // Webhooks arrive inactive: an archive's webhook sends the importer's runs (input, output) to
  // an address that came with the archive, so the person turns each on once they trust it.
  for (const w of t.webhooks) {
    const secret = typeof w.secret === 'string' ? w.secret : newSecret();
    store.insert('webhooks', w, { user_id: scope.userId, agent_id: agentId.get(Number(w.agent_id))!, secret, status: 'inactive', deleted_at: null });
    count.webhooks++;
  }

  const fileId = new Map<number, number>();
  for (const f of t.files) {
    const status = f.status === 'in_progress' ? 'waiting' : f.status; // its processing did not travel with it
    const id = store.insert('files', f, { workspace_id: scope.workspaceId, user_id: scope.userId, status });
    fileId.set(Number(f.id), id);
    const dest = path.join(dataDir, 'files', String(id));
    if (fs.existsSync(dest)) throw bad(`Stored bytes already exist for file ${id}; refusing to overwrite them.`);
    fs.renameSync(temps.get(Number(f.id))!, dest);
    renamed.push(dest);
    count.files++;
  }
  for (const p of t.file_passages) {
    store.insert('file_passages', p, { file_id: fileId.get(Number(p.file_id))! });
    count.file_passages++;
  }
  for (const l of t.agent_files) {
    store.insert('agent_files', l, { agent_id: agentId.get(Number(l.agent_id))!, file_id: fileId.get(Number(l.file_id))!, created_at: l.created_at ?? now });
    count.agent_files++;
  }
  return { count, collection: collectionName };
}

/** What the import worker answers. */
export type ImportAnswer = { ok: true; result: ImportResult } | { ok: false; bad: boolean; message: string };

/**
 * `importArchive` in a worker thread with its own connection to the same database, so reading,
 * checking and writing a 190 MB archive never blocks the API's event loop (the rows still go in
 * one transaction: all or nothing). Built, the worker is archive-import.js next to the main
 * bundle (electron.vite.config.ts input `archive-import`).
 */
export async function importArchiveInWorker(db: DB, dataDir: string, scope: ExportScope, archive: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const entry = await workerEntry(import.meta.url, './import-worker.ts', './archive-import.js');
  return new Promise((resolve, reject) => {
    // A ceiling under the streamed reads (json-rows.ts), so no archive can take the process's memory.
    const worker = new Worker(entry, { workerData: { dbPath: db.name, dataDir, scope, archive, opts }, stdout: false, stderr: false, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    worker.once('message', (m: ImportAnswer) => settle(() => (m.ok ? resolve(m.result) : reject(m.bad ? new BadArchiveError(m.message) : new Error(m.message)))));
    worker.once('error', (err) =>
      settle(() => reject((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? bad(`The archive is too large to import at once (its rows need more than ${WORKER_HEAP_MB} MB).`) : err)),
    );
    worker.once('exit', (code) => settle(() => reject(new Error(`The import stopped unexpectedly (exit code ${code}).`))));
  });
}
