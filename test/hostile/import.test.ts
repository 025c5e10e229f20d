import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makePlatform } from '../api/helpers.js';
import { exportTar, importTar, userView } from '../crash/data-safety-helpers.js';
import { collectExport, EXPORT_FORMAT, EXPORT_VERSION, TABLE_NAMES, type ExportTables, type Row } from '../../src-main/platform/modules/archive/service.js';
import { tarEnd, tarEntry } from '../../src-main/platform/modules/archive/tar.js';
import { tarJson } from './support/tar-read.js';
import { limit } from '../fixtures/until.js';

/**
 * A hostile archive is refused with 422 naming its first bad row, and changes nothing: the
 * reads that a bad row used to break (agents list, /v1/models) still answer 200 after it.
 */
describe('archive import validation', () => {
  const src = makePlatform();
  const dst = makePlatform();
  let rows: ExportTables;

  beforeAll(async () => {
    const a = await call(src, 'POST', '/api/agents', {
      body: { title: 'Hostile import source', questions: [{ type: 'string', name: 'topic', description: 'What about', required: true }] },
    });
    expect(a.status, a.text).toBe(201);
    const m = await call(src, 'POST', '/api/memories', { body: { memory: 'A plain memory.' } });
    expect(m.status, m.text).toBe(200);
    rows = collectExport(src.db, { userId: 1, workspaceId: 1 });
    expect(rows.agents.length).toBeGreaterThan(0);
    expect(rows.memories.length).toBe(1);
  });
  afterAll(async () => {
    for (const p of [src, dst]) {
      await p.close();
      fs.rmSync(p.dir, { recursive: true, force: true });
    }
  });

  /** An archive of the source's rows, with `change` applied to a deep copy of them. */
  const archive = (change: (t: ExportTables) => void): Buffer => {
    const t = structuredClone(rows);
    change(t);
    const parts = TABLE_NAMES.map((n) => tarEntry(`${n}.json`, Buffer.from(JSON.stringify(t[n]))));
    parts.push(tarEntry('manifest.json', Buffer.from(JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION }))), tarEnd());
    return Buffer.concat(parts);
  };
  const ours = (t: ExportTables) => t.agents.find((a) => a.title === 'Hostile import source') as Row;

  const refused = async (tar: Buffer, message: RegExp) => {
    const before = userView(dst);
    const r = await importTar(dst, tar);
    expect(r.status, r.text).toBe(422);
    expect(r.json.errors.archive[0]).toMatch(message);
    expect(r.json.message).toBe(r.json.errors.archive[0]);
    expect(userView(dst)).toEqual(before);
    for (const url of ['/api/agents', '/v1/models']) expect((await call(dst, 'GET', url)).status, url).toBe(200);
  };

  it('a valid export imports (the checks accept what the app writes)', async () => {
    const r = await importTar(dst, archive(() => {}));
    expect(r.status, r.text).toBe(200);
    expect(r.json.imported.memories).toBe(1);
  });

  it('malformed questions (not JSON, or JSON the API would refuse) is 422 naming the row', async () => {
    await refused(
      archive((t) => (ours(t).questions = '[{"type": "select", ')),
      /^The archive holds invalid data: agents\.json row \d+ \(id \d+\), questions: is not JSON \(a list of questions expected\)\.$/,
    );
    await refused(
      archive((t) => (ours(t).questions = JSON.stringify([{ type: 'bogus', name: '1x', description: '', required: 'yes' }]))),
      /^The archive holds invalid data: agents\.json row \d+ \(id \d+\), questions: 0\.type: /,
    );
    await refused(
      archive((t) => (ours(t).questions = '{"not": "a list"}')),
      /agents\.json row \d+ \(id \d+\), questions: /,
    );
  });

  it('a timestamp given as text or a float, or an unknown agent type, is 422 naming the column', async () => {
    await refused(
      archive((t) => (ours(t).created_at = '2026-11-23T10:00:00Z')),
      /^The archive holds invalid data: agents\.json row \d+ \(id \d+\), created_at: Invalid input: expected number, received string\.$/,
    );
    await refused(archive((t) => (t.memories[0].updated_at = 1.5)), /memories\.json row 1 \(id \d+\), updated_at: /);
    await refused(archive((t) => (ours(t).type = 'robot')), /agents\.json row \d+ \(id \d+\), type: /);
  });

  it('three 40 MB memories are refused past the 32,000-character limit, parsed off the main thread', async () => {
    const big = 'm'.repeat(40 * 1024 * 1024);
    const tar = archive((t) => {
      const m = t.memories[0];
      t.memories = [1, 2, 3].map((i) => ({ ...m, id: Number(m.id) + i, memory: big }));
    });
    // The archive's JSON is parsed in the import worker: the main thread never parses a large string.
    const parse = JSON.parse;
    let largest = 0;
    JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
      if (typeof text === 'string') largest = Math.max(largest, text.length);
      return parse(text, reviver);
    }) as typeof JSON.parse;
    try {
      await refused(tar, /^The archive holds invalid data: memories\.json row 1 \(id \d+\), memory: Too big: expected string to have <=32000 characters\.$/);
    } finally {
      JSON.parse = parse;
    }
    expect(largest).toBeLessThan(1024 * 1024);
  }, limit(120_000));
});

/**
 * What an archive names outside itself binds nothing on the importing machine: an agent's MCP
 * servers (ids of the source machine, or guessed ones that happen to be the importer's) are
 * dropped, and so is any reference to a row the archive does not hold, each with a note.
 */
describe('archive import: references stay inside the archive', () => {
  const src = makePlatform({ env: {} });
  const dst = makePlatform({ env: {} });
  let rows: ExportTables;
  let importerServer: number;

  const server = async (p: typeof src, name: string) => {
    const r = await call(p, 'POST', '/api/mcp-servers', { body: { name, transport: 'stdio', command: process.execPath, args: ['-e', ''] } });
    expect(r.status, r.text).toBe(201);
    return r.json.id as number;
  };

  beforeAll(async () => {
    const srcServer = await server(src, 'Source files');
    const a = await call(src, 'POST', '/api/agents', { body: { title: 'Tool user', instructions: 'Use tools.', tool_servers: [{ server_id: srcServer, tools: null }] } });
    expect(a.status, a.text).toBe(201);
    expect(a.json.tool_servers).toEqual([{ server_id: srcServer, tools: null }]);
    const w = await call(src, 'POST', `/api/agents/${a.json.id}/webhooks`, { body: { url: 'http://127.0.0.1:9/hook', method: 'POST' } });
    expect(w.status, w.text).toBe(201);
    expect((await call(src, 'POST', '/api/memories', { body: { memory: 'A memory of the source.' } })).status).toBe(200);
    rows = collectExport(src.db, { userId: 1, workspaceId: 1 });
    // The importer has servers of its own, under the ids a hostile archive would guess.
    for (let i = 0; i < 3; i++) importerServer = await server(dst, `Importer files ${i}`);
  });
  afterAll(async () => {
    for (const p of [src, dst]) {
      await p.close();
      fs.rmSync(p.dir, { recursive: true, force: true });
    }
  });

  const tarOf = (t: ExportTables): Buffer =>
    Buffer.concat([...TABLE_NAMES.map((n) => tarEntry(`${n}.json`, Buffer.from(JSON.stringify(t[n])))), tarEntry('manifest.json', Buffer.from(JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION }))), tarEnd()]);
  const toolUser = (t: ExportTables) => t.agents.find((a) => a.title === 'Tool user') as Row;
  const importedAgents = (title: string) => dst.db.prepare("SELECT id, tool_servers FROM agents WHERE title = ? AND source = 'local' ORDER BY id").all(title) as { id: number; tool_servers: string }[];

  it('an imported agent is bound to no MCP server of the importer', async () => {
    const t = structuredClone(rows);
    toolUser(t).tool_servers = JSON.stringify([...new Set([1, 2, 3, 4, 5, 6, importerServer])].slice(-6).map((server_id) => ({ server_id, tools: null })));
    const before = importedAgents('Tool user').length;
    const r = await importTar(dst, tarOf(t));
    expect(r.status, r.text).toBe(200);
    const mine = importedAgents('Tool user');
    expect(mine.length).toBe(before + 1);
    expect(JSON.parse(mine.at(-1)!.tool_servers)).toEqual([]);
    const got = await call(dst, 'GET', `/api/agents/${mine.at(-1)!.id}`);
    expect(got.json.tool_servers).toEqual([]);
    expect(r.json.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^The agent "Tool user" was imported without its 6 MCP servers/)]));
  });

  it("an honest export's MCP server ids (the source machine's) are dropped too", async () => {
    const tar = await exportTar(src, '?include_secrets=1');
    const exported = tarJson(tar, 'agents.json') as Row[];
    expect(JSON.parse(String(exported.find((a) => a.title === 'Tool user')!.tool_servers))).toHaveLength(1);
    const r = await importTar(dst, tar);
    expect(r.status, r.text).toBe(200);
    expect(JSON.parse(importedAgents('Tool user').at(-1)!.tool_servers)).toEqual([]);
    expect(r.json.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^The agent "Tool user" was imported without its MCP server/)]));
  });

  it('a column the schema does not list is refused, naming it, and changes nothing', async () => {
    for (const [table, column] of [
      ['agents', 'evil'],
      ['webhooks', 'payload'],
      ['memories', '__proto__'],
    ] as const) {
      const t = structuredClone(rows);
      const row = table === 'agents' ? toolUser(t) : t[table][0];
      Object.defineProperty(row, column, { value: 'x', enumerable: true, configurable: true, writable: true });
      const before = userView(dst);
      const r = await importTar(dst, tarOf(t));
      expect(r.status, `${table}.${column}: ${r.text}`).toBe(422);
      expect(r.json.message).toMatch(new RegExp(String.raw`^The archive holds invalid data: ${table}\.json row \d+ \(id \d+\), column "${column}" is not one Agent Desk knows\.$`));
      expect(userView(dst)).toEqual(before);
    }
  });

  it('references to ids outside the archive are dropped, with a note', async () => {
    const t = structuredClone(rows);
    const agentId = Number(toolUser(t).id);
    // The importer's newest agent: an id the archive does not hold.
    const dstAgent = (dst.db.prepare('SELECT max(id) AS id FROM agents').get() as { id: number }).id;
    expect(t.agents.some((a) => Number(a.id) === dstAgent)).toBe(false);
    // A webhook of an agent the archive does not hold (one of the importer's own ids), a link to a
    // file it does not hold, and a memory in a collection it does not hold.
    t.webhooks.push({ ...t.webhooks[0], id: 999_001, agent_id: dstAgent });
    t.agent_files.push({ agent_id: agentId, file_id: 424_242, created_at: 1 });
    t.memories.push({ ...t.memories[0], id: 999_002, collection_id: 777_777, memory: 'A memory whose collection stayed behind.' });
    const hooksBefore = (dst.db.prepare('SELECT count(*) AS n FROM webhooks WHERE agent_id = ?').get(dstAgent) as { n: number }).n;
    const r = await importTar(dst, tarOf(t));
    expect(r.status, r.text).toBe(200);
    expect(r.json.imported.webhooks).toBe(t.webhooks.length - 1);
    expect(r.json.imported.agent_files).toBe(t.agent_files.length - 1);
    expect((dst.db.prepare('SELECT count(*) AS n FROM webhooks WHERE agent_id = ?').get(dstAgent) as { n: number }).n).toBe(hooksBefore);
    const m = dst.db.prepare("SELECT c.name FROM memories m JOIN memory_collections c ON c.id = m.collection_id WHERE m.memory = 'A memory whose collection stayed behind.'").get() as { name: string };
    expect(m.name).toMatch(/^Imported export/);
    expect(r.json.notes).toEqual(
      expect.arrayContaining([
        '1 webhook named an agent that is not in the archive; it was left out.',
        '1 link between an agent and a file named one that is not in the archive; it was left out.',
        expect.stringMatching(/^The \d+ memories went into a new collection, "Imported export( \(\d+\))?", not into your default collection; conversations leave them out until you turn that collection on\.$/),
      ]),
    );
  });
});

describe('export: webhook secrets', () => {
  const src = makePlatform({ env: {} });
  const dst = makePlatform({ env: {} });
  let secret: string;

  beforeAll(async () => {
    const a = await call(src, 'POST', '/api/agents', { body: { title: 'Announcer' } });
    const w = await call(src, 'POST', `/api/agents/${a.json.id}/webhooks`, { body: { url: 'http://127.0.0.1:9/announce', method: 'POST' } });
    expect(w.status, w.text).toBe(201);
    secret = w.json.secret;
    expect(secret).toMatch(/^whsec_/);
  });
  afterAll(async () => {
    for (const p of [src, dst]) {
      await p.close();
      fs.rmSync(p.dir, { recursive: true, force: true });
    }
  });

  it('an export leaves webhook secrets out unless asked', async () => {
    const plain = await exportTar(src);
    expect(plain.includes(Buffer.from(secret))).toBe(false);
    expect(plain.includes(Buffer.from('whsec_'))).toBe(false);
    const hooks = tarJson(plain, 'webhooks.json') as Row[];
    expect(hooks).toHaveLength(1);
    expect(hooks[0]).not.toHaveProperty('secret');
    const asked = await exportTar(src, '?include_secrets=1');
    expect((tarJson(asked, 'webhooks.json') as Row[])[0].secret).toBe(secret);
    const bad = await call(src, 'GET', '/api/export?include_secrets=maybe');
    expect(bad.status).toBe(422);
    expect(bad.json.errors.include_secrets).toBeDefined();
  });

  it('an import of an export without secrets gives each webhook a new secret, with a note', async () => {
    const r = await importTar(dst, await exportTar(src));
    expect(r.status, r.text).toBe(200);
    expect(r.json.imported.webhooks).toBe(1);
    const row = dst.db.prepare("SELECT secret FROM webhooks WHERE url = 'http://127.0.0.1:9/announce'").get() as { secret: string };
    expect(row.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(row.secret).not.toBe(secret);
    expect(r.json.notes).toContain('1 webhook came without its signing secret (exports leave secrets out); it has a new one, so update its receiver.');
  });
});
