/**
 * Property-based fuzzing of the archive importer: an honest export, changed by one hostile
 * mutation per run (archive-mutations.ts: wrong types, unknown columns, references outside the
 * archive, table shapes, JSON columns). Every run is accepted or refused with a reason, never a
 * fault; a refusal changes nothing; an accepted archive binds nothing outside itself (no MCP
 * server, no row of the importer's) and leaves every read answering.
 *
 * Runs in-process against `importArchive` (the function the import worker runs: a
 * BadArchiveError is the HTTP 422, anything else would be a 500); a sample goes through
 * `POST /api/import` to check that mapping end to end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, call, KEY } from '../api/helpers.js';
import { exportTar, upload } from '../crash/data-safety-helpers.js';
import { tarEntries } from '../hostile/support/tar-read.js';
import { problemsWith } from './answers.js';
import { cleanup, changedTables, digestTables, FUZZ_SEED, fuzzPlatform } from './harness.js';
import { danglingReference, jsonColumn, tableShape, unknownColumn, wrongType, type Mutation, type Tables } from './archive-mutations.js';
import { importArchive } from '../../src-main/platform/modules/archive/import.js';
import { BadArchiveError, tarEnd, tarEntry } from '../../src-main/platform/modules/archive/tar.js';
import { TABLE_NAMES } from '../../src-main/platform/modules/archive/service.js';
import { ROW_SCHEMAS } from '../../src-main/platform/modules/archive/rows.js';
import { columnsOf } from '../../src-main/platform/modules/archive/store.js';
import { Agent } from '../../src-main/platform/contract/agents.js';
import { limit } from '../fixtures/until.js';

const env = Number(process.env.FUZZ_RUNS);
const RUNS = Number.isFinite(env) && env > 0 ? Math.floor(env) : 80;
const scope = { userId: 1, workspaceId: 1 };

const src = fuzzPlatform();
const dst = fuzzPlatform();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-archive-fuzz-'));
let base: Tables;
let manifest: Buffer;
let fileEntries: [string, Buffer][];
const importer = { agents: [] as number[], files: [] as number[], collections: [] as number[], servers: [] as number[] };
type Outcome = 'accepted' | 'refused';
const stats: Record<string, { tried: number; accepted: number; refused: number; noted: number }> = {};

beforeAll(async () => {
  // The source: two agents (one bound to an MCP server of the source machine), a webhook, memories
  // in two collections, a processed file with passages, linked to an agent.
  const server = await call(src, 'POST', '/api/mcp-servers', { body: { name: 'Source files', transport: 'stdio', command: process.execPath, args: ['-e', ''] } });
  expect(server.status, server.text).toBe(201);
  const a = await call(src, 'POST', '/api/agents', {
    body: { title: 'Fuzz agent', questions: [{ type: 'select', name: 'tone', description: 'Tone', required: true, options: ['dry', 'warm'] }], tool_servers: [{ server_id: server.json.id, tools: null }] },
  });
  const b = await call(src, 'POST', '/api/agents', { body: { title: 'Second fuzz agent', type: 'text' } });
  expect([a.status, b.status]).toEqual([201, 201]);
  expect((await call(src, 'POST', `/api/agents/${a.json.id}/webhooks`, { body: { url: 'http://127.0.0.1:9/hook', method: 'POST', events: ['execution.failed'] } })).status).toBe(201);
  const col = await call(src, 'POST', '/api/memory-collections', { body: { name: 'Fuzz notes' } });
  expect((await call(src, 'POST', '/api/memories', { body: { memory: 'In the default collection.' } })).status).toBe(200);
  expect((await call(src, 'POST', '/api/memories', { body: { memory: 'In a named collection.', collection_id: col.json.collection.id } })).status).toBe(200);
  const file = await upload(src, 'notes.txt', Buffer.from('Alpha beta gamma.\n\nDelta epsilon.'), { process: true });
  expect(file.status, file.text).toBe(200);
  expect((await call(src, 'POST', `/api/agents/${a.json.id}/files`, { body: { file_ids: [file.json.id] } })).status).toBe(200);
  await src.jobs.idle(limit(20_000));

  const entries = tarEntries(await exportTar(src, '?include_secrets=1'));
  manifest = entries.get('manifest.json')!;
  fileEntries = [...entries].filter(([name]) => name.startsWith('files/'));
  base = Object.fromEntries(TABLE_NAMES.map((t) => [t, JSON.parse(entries.get(`${t}.json`)!.toString('utf8'))]));
  // Only the two agents made here (the seeded catalog's would only slow each run).
  const ours = new Set([a.json.id, b.json.id]);
  base.agents = (base.agents as { id: number }[]).filter((r) => ours.has(r.id));
  for (const t of TABLE_NAMES) expect((base[t] as unknown[]).length, t).toBeGreaterThan(0);

  // The importer has rows of its own under the ids a hostile archive would name.
  for (let i = 0; i < 3; i++) {
    const s = await call(dst, 'POST', '/api/mcp-servers', { body: { name: `Importer files ${i}`, transport: 'stdio', command: process.execPath, args: ['-e', ''] } });
    importer.servers.push(s.json.id);
  }
  const f = await upload(dst, 'mine.txt', Buffer.from('The importer keeps this.'));
  importer.files.push(f.json.id);
  await call(dst, 'POST', '/api/memories', { body: { memory: 'The importer keeps this too.' } });
  importer.agents.push(...(dst.db.prepare('SELECT id FROM agents').pluck().all() as number[]));
  importer.collections.push(...(dst.db.prepare('SELECT id FROM memory_collections').pluck().all() as number[]));
  await dst.jobs.idle(limit(20_000));
}, limit(120_000));

afterAll(async () => {
  await cleanup(src);
  await cleanup(dst);
  fs.rmSync(work, { recursive: true, force: true });
  // The figures the README's proof table quotes.
  const total = Object.values(stats).reduce((n, s) => n + s.tried, 0);
  console.info(`[archive-fuzz] seed ${FUZZ_SEED}, ${total} archives: ${Object.entries(stats).map(([k, s]) => `${k} ${s.tried} (${s.accepted} accepted, ${s.refused} refused, ${s.noted} with notes)`).join('; ')}`);
});

/** POST /api/import as a client sends it, keeping the answer's headers (problemsWith reads them). */
async function postImport(tar: Buffer) {
  const form = new FormData();
  form.append('archive', new Blob([new Uint8Array(tar)]), 'export.tar');
  const res = await dst.app.request(`${BASE}/api/import`, { method: 'POST', headers: { host: '127.0.0.1:8787', authorization: `Bearer ${KEY}` }, body: form });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
}

function tarOf(t: Tables): Buffer {
  const json = (v: unknown) => Buffer.from(JSON.stringify(v) ?? 'null');
  return Buffer.concat([...fileEntries.map(([n, b]) => tarEntry(n, b)), ...Object.keys(t).map((n) => tarEntry(`${n}.json`, json(t[n]))), tarEntry('manifest.json', manifest), tarEnd()]);
}

const maxId = (table: string) => (dst.db.prepare(`SELECT coalesce(max(id), 0) FROM ${table}`).pluck().get() as number) ?? 0;
const filesOnDisk = () => fs.readdirSync(path.join(dst.dir, 'files')).sort().join(',');
/** Every row the importer had before, as it was: rows with ids up to `upTo` per table. */
function oldRows(upTo: Record<string, number>): string {
  const parts = Object.entries(upTo).map(([t, n]) => JSON.stringify(dst.db.prepare(`SELECT * FROM ${t} WHERE id <= ? ORDER BY id`).raw().all(n)));
  parts.push(JSON.stringify(dst.db.prepare('SELECT * FROM agent_files WHERE agent_id <= ? ORDER BY agent_id, file_id').raw().all(upTo.agents)));
  return parts.join('\n');
}

/** Imports one mutated archive in-process and checks every invariant; returns the outcome. */
async function attempt(category: string, m: Mutation): Promise<Outcome> {
  const s = (stats[category] ??= { tried: 0, accepted: 0, refused: 0, noted: 0 });
  s.tried++;
  const t = structuredClone(base);
  m.apply(t);
  const file = path.join(work, 'a.tar');
  fs.writeFileSync(file, tarOf(t));
  const upTo = Object.fromEntries(['agents', 'memory_collections', 'memories', 'webhooks', 'files', 'file_passages'].map((n) => [n, maxId(n)]));
  const before = digestTables(dst.db);
  const old = oldRows(upTo);
  const disk = filesOnDisk();
  let result: ReturnType<typeof importArchive>;
  try {
    result = importArchive(dst.db, dst.dir, scope, file);
  } catch (err) {
    // A refusal is a BadArchiveError (422 with its sentence); anything else would be a 500.
    expect(err, `${m.describe}: ${(err as Error).stack}`).toBeInstanceOf(BadArchiveError);
    expect((err as Error).message).toMatch(/^(The archive|This )/);
    expect(changedTables(before, digestTables(dst.db)), `${m.describe}: a refused archive changed data`).toEqual([]);
    expect(filesOnDisk(), m.describe).toBe(disk);
    s.refused++;
    return 'refused';
  }
  s.accepted++;
  if (result.notes.length) s.noted++;
  for (const n of result.notes) expect(typeof n === 'string' && n.endsWith('.'), m.describe).toBe(true);
  if (m.dangling) expect(result.notes.length, `${m.describe}: dropped without a note`).toBeGreaterThan(0);
  expect(oldRows(upTo), `${m.describe}: an import changed the importer's own rows`).toBe(old);

  // Nothing new is bound outside the archive.
  const agents = dst.db.prepare('SELECT * FROM agents WHERE id > ?').all(upTo.agents) as Record<string, unknown>[];
  const newAgents = new Set(agents.map((a) => a.id));
  for (const a of agents) expect({ tool_servers: a.tool_servers, source: a.source, remote_id: a.remote_id, workspace_id: a.workspace_id, created_by: a.created_by }, m.describe).toEqual({ tool_servers: '[]', source: 'local', remote_id: null, workspace_id: 1, created_by: 1 });
  const newFiles = new Set(dst.db.prepare('SELECT id FROM files WHERE id > ?').pluck().all(upTo.files));
  for (const w of dst.db.prepare('SELECT agent_id, user_id, secret FROM webhooks WHERE id > ?').all(upTo.webhooks) as { agent_id: number; user_id: number; secret: string }[]) {
    expect(newAgents.has(w.agent_id) && w.user_id === 1 && w.secret.length > 0, `${m.describe}: webhook bound outside the archive`).toBe(true);
  }
  const mine = new Set(dst.db.prepare('SELECT id FROM memory_collections WHERE user_id = 1').pluck().all());
  for (const c of dst.db.prepare('SELECT collection_id FROM memories WHERE id > ?').pluck().all(upTo.memories)) expect(mine.has(c), m.describe).toBe(true);
  for (const l of dst.db.prepare('SELECT agent_id, file_id FROM agent_files WHERE agent_id > ?').all(upTo.agents) as { agent_id: number; file_id: number }[]) {
    expect(newAgents.has(l.agent_id) && newFiles.has(l.file_id), `${m.describe}: link bound outside the archive`).toBe(true);
  }
  for (const f of dst.db.prepare('SELECT file_id FROM file_passages WHERE id > ?').pluck().all(upTo.file_passages)) expect(newFiles.has(f), m.describe).toBe(true);
  for (const id of newFiles) expect(fs.existsSync(path.join(dst.dir, 'files', String(id))), m.describe).toBe(true);

  // Reads keep answering, and show what was imported in the contract's shape.
  for (const id of newAgents) {
    const r = await call(dst, 'GET', `/api/agents/${id}`);
    expect(r.status, `${m.describe}: ${r.text}`).toBe(200);
    expect(Agent.safeParse(r.json).error, m.describe).toBeUndefined();
  }
  for (const url of ['/api/agents?per_page=100', '/v1/models', '/api/memories', '/api/files']) expect((await call(dst, 'GET', url)).status, `${m.describe}: ${url}`).toBe(200);
  return 'accepted';
}

const categories: [string, () => fc.Arbitrary<Mutation>][] = [
  ['wrong types', () => wrongType],
  ['unknown columns', () => unknownColumn],
  ['dangling references', () => danglingReference(importer)],
  ['table shapes', () => tableShape],
  ['JSON columns', () => jsonColumn],
];

describe('fuzz: the archive importer', () => {
  it('every column of the exported tables is one the row schemas list (an honest export always imports)', () => {
    for (const t of TABLE_NAMES) {
      const listed = Object.keys((ROW_SCHEMAS[t] as unknown as { shape: Record<string, unknown> }).shape);
      for (const c of columnsOf(dst.db, t)) expect(listed, `${t}.${c}`).toContain(c);
    }
  });

  it('the honest archive imports, with a note for the MCP server it leaves behind', async () => {
    expect(await attempt('honest', { describe: 'unchanged', apply: () => {}, dangling: true })).toBe('accepted');
  });

  for (const [name, arb] of categories) {
    it(
      `${name}: accepted or refused with a reason, never a fault; nothing bound outside the archive`,
      async () => {
        await fc.assert(
          fc.asyncProperty(arb(), async (m) => {
            await attempt(name, m);
          }),
          { seed: FUZZ_SEED, numRuns: RUNS, endOnFailure: true },
        );
        // Each category reaches both outcomes (or it tests nothing).
        if (name !== 'dangling references') expect(stats[name].refused, name).toBeGreaterThan(0);
        if (name === 'dangling references' || name === 'JSON columns' || name === 'table shapes') expect(stats[name].accepted, name).toBeGreaterThan(0);
      },
      limit(60_000 + RUNS * 1500),
    );
  }

  it(
    'through POST /api/import: each category answers 200 or a 422 in the contract shape, never a 500',
    async () => {
      const http = (stats['over HTTP'] = { tried: 0, accepted: 0, refused: 0, noted: 0 });
      for (const [name, arb] of categories) {
        for (const m of fc.sample(arb(), { seed: FUZZ_SEED + 1, numRuns: 4 })) {
          const t = structuredClone(base);
          m.apply(t);
          const r = await postImport(tarOf(t));
          expect(problemsWith(r, { method: 'POST', url: '/api/import' }), `${name}: ${m.describe}`).toEqual([]);
          expect([200, 422], `${name}: ${m.describe}: ${r.text}`).toContain(r.status);
          http.tried++;
          if (r.status === 422) http.refused++;
          else {
            const notes = JSON.parse(r.text).notes;
            expect(Array.isArray(notes), r.text).toBe(true);
            http.accepted++;
            if (notes.length) http.noted++;
          }
        }
      }
    },
    limit(120_000),
  );
});
