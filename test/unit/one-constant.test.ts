/**
 * Values written once, in the domain that owns them: how long `wait_execution` holds a request
 * (CONTRACT.md "Execution": up to 100 s) and the database's file name (db/connection.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WAIT_MS } from '../../src-main/platform/modules/executions/service.js';
import { DATABASE_FILE } from '../../src-main/platform/db/connection.js';
import { backupDataDir } from '../../src-main/platform/modules/archive/backup.js';
import { indexTar } from '../../src-main/platform/modules/archive/tar.js';
import { call, closePlatform, makePlatform, tempDir } from '../api/helpers.js';

describe('one constant each', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));

  it('wait_execution holds a request up to 100 s, and the operation says so from the same value', async () => {
    expect(WAIT_MS).toBe(100_000);
    const doc = (await call(p, 'GET', '/api/openapi.json', { key: null })).json;
    expect(doc.paths['/api/agents/{id}/execute'].post.description).toContain('(up to 100 s)');
  });

  it('the database file is where the platform opens it, and a backup names its copy the same', () => {
    expect(DATABASE_FILE).toBe('agent-desk.sqlite');
    expect(fs.existsSync(path.join(p.dir, DATABASE_FILE))).toBe(true);
    const out = path.join(tempDir(), 'backup.tar');
    backupDataDir({ dataDir: p.dir, out });
    const fd = fs.openSync(out, 'r');
    try {
      expect(indexTar(fd, fs.statSync(out).size, { maxEntries: 100 }).map((e) => e.name)).toContain(DATABASE_FILE);
    } finally {
      fs.closeSync(fd);
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
    }
  });
});
