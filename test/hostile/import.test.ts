import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makePlatform } from '../api/helpers.js';
import { importTar, userView } from '../crash/data-safety-helpers.js';
import { collectExport, EXPORT_FORMAT, EXPORT_VERSION, TABLE_NAMES, type ExportTables, type Row } from '../../src-main/platform/modules/archive/service.js';
import { tarEnd, tarEntry } from '../../src-main/platform/modules/archive/tar.js';

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
  }, 120_000);
});
