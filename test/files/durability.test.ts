import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, makePlatform, tempDir } from '../api/helpers.js';
import { filesSettled, upload } from './helpers.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';
import { until, limit } from '../fixtures/until.js';
import { searchPassages } from '../../src-main/platform/modules/files/search.js';

describe('files durability', () => {
  it('processing interrupted by a crash resumes at the next start', async () => {
    const dir = tempDir();
    try {
      const a = makePlatform({ dataDir: dir });
      const up = await upload(a, 'resume.txt', 'The resumed file speaks of glaciers.');
      // What a kill -9 during extraction leaves: the file in progress, its job claimed, a partial passage.
      a.db.transaction(() => {
        a.db.prepare("UPDATE files SET status = 'in_progress' WHERE id = ?").run(up.json.id);
        a.db.prepare("INSERT INTO jobs(kind, payload, state, attempts, max_attempts, run_at, created_at, updated_at) VALUES ('file.process', ?, 'running', 1, 1000, 0, 0, 0)").run(JSON.stringify({ fileId: up.json.id }));
        a.db.prepare('INSERT INTO file_passages(file_id, ordinal, text) VALUES (?, 0, ?)').run(up.json.id, 'partial stale passage');
      })();
      a.abandon(); // no shutdown: the process "died"
      const b = makePlatform({ dataDir: dir });
      try {
        await b.jobs.idle();
        await filesSettled(b);
        const got = await call(b, 'GET', `/api/files/${up.json.id}`);
        expect(got.json).toMatchObject({ status: 'completed', passages: 1 });
        expect(searchPassages(b.db, [up.json.id], 'glaciers', 3)).toHaveLength(1);
        expect(searchPassages(b.db, [up.json.id], 'stale', 3)).toHaveLength(0);
      } finally {
        await b.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('start-up removes stray temp files and reports bytes that have no row', async () => {
    const dir = tempDir();
    try {
      fs.mkdirSync(path.join(dir, 'files', 'tmp'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'files', 'tmp', 'dead-upload.part'), 'half an upload');
      fs.writeFileSync(path.join(dir, 'files', '4242'), 'bytes without a row');
      const lines: string[] = [];
      const logger = createLogger('warn');
      const warn = logger.warn.bind(logger);
      logger.warn = ((obj: unknown, msg?: string) => {
        lines.push(`${msg} ${JSON.stringify(obj)}`);
        return warn(obj as object, msg);
      }) as typeof logger.warn;
      const p = makePlatform({ dataDir: dir, logger });
      try {
        expect(fs.readdirSync(path.join(dir, 'files', 'tmp'))).toEqual([]);
        expect(fs.existsSync(path.join(dir, 'files', '4242'))).toBe(true);
        expect(lines.some((l) => l.includes('without a database row') && l.includes('4242'))).toBe(true);
      } finally {
        await p.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shutdown during extraction leaves the job to resume, not failed', async () => {
    const dir = tempDir();
    try {
      const a = makePlatform({ dataDir: dir });
      const big = 'Lines about the harbour and its cranes. '.repeat(200_000); // ~8 MB: extraction takes a while
      const up = await upload(a, 'big.txt', big);
      await call(a, 'POST', '/api/agents/1/files', { body: { file_ids: [up.json.id] } });
      // Closed while its reader is at work.
      await until('the extraction to be running', () => (a.db.prepare("SELECT count(*) AS n FROM jobs WHERE kind = 'file.process' AND state = 'running'").get() as { n: number }).n > 0);
      await a.close();
      const b = makePlatform({ dataDir: dir });
      try {
        await b.jobs.idle(60_000);
        // Its extraction ended (the answer's `completed` also waits for the vectors of its ~9,000 passages).
        expect(b.db.prepare('SELECT status FROM files WHERE id = ?').get(up.json.id)).toEqual({ status: 'completed' });
      } finally {
        await b.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, limit(90_000));
});
