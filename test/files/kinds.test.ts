import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makePlatform, tempDir } from '../api/helpers.js';
import { filesSettled, upload } from './helpers.js';
import { COMMITTED_DIR, makeDocuments, phraseOf } from '../fixtures/documents.js';
import { ACCEPTED_EXTENSIONS } from '../../src-main/platform/ingest/kinds.js';
import { searchPassages } from '../../src-main/platform/modules/files/search.js';
import { limit } from '../fixtures/until.js';

// Formats whose own tags carry the phrase (ffmpeg's `title`); the rest are found by their metadata.
const TAGGED_MEDIA = ['mp3', 'wav', 'ogg', 'flac', 'm4a', 'mp4', 'mov', 'mkv', 'wmv'];

describe('every accepted kind is really read', () => {
  const p = makePlatform();
  const dir = tempDir('agent-desk-docs-');
  const files: Record<string, any> = {};

  beforeAll(async () => {
    const made = await makeDocuments(dir);
    for (const f of fs.readdirSync(COMMITTED_DIR)) made[path.extname(f).slice(1)] = path.join(COMMITTED_DIR, f);
    for (const [ext, file] of Object.entries(made)) {
      const r = await upload(p, `sample.${ext}`, fs.readFileSync(file));
      expect(r.status, r.text).toBe(200);
      files[ext] = r.json;
    }
    // Linking starts processing of every waiting file.
    const link = await call(p, 'POST', '/api/agents/1/files', { body: { file_ids: Object.values(files).map((f) => f.id) } });
    expect(link.status, link.text).toBe(200);
    await p.jobs.idle(150_000);
    await filesSettled(p);
  }, limit(180_000));

  afterAll(async () => {
    await p.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(p.dir, { recursive: true, force: true });
  });

  it('has a fixture for every extension of the spec table', () => {
    expect(Object.keys(files).sort()).toEqual([...ACCEPTED_EXTENSIONS].sort());
  });

  it.each(ACCEPTED_EXTENSIONS.filter((e) => !['jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'webp', 'aac', 'avi', 'flv', ...TAGGED_MEDIA].includes(e)))(
    '%s: its phrase is found in the indexed passages',
    async (ext) => {
      const f = files[ext];
      const got = await call(p, 'GET', `/api/files/${f.id}`);
      expect(got.json.status, got.json.error).toBe('completed');
      expect(got.json.credits).toBeGreaterThan(0);
      const hits = searchPassages(p.db, [f.id], phraseOf(ext), 3);
      expect(hits.length).toBeGreaterThan(0);
      expect(hits[0].text).toContain(phraseOf(ext));
      expect(hits[0]).toMatchObject({ file_id: f.id, filename: `sample.${ext}` });
    },
  );

  it.each(TAGGED_MEDIA)('%s: duration, streams and the title tag', async (ext) => {
    const got = await call(p, 'GET', `/api/files/${files[ext].id}`);
    expect(got.json.status, got.json.error).toBe('completed');
    expect(got.json.metadata.duration).toBeGreaterThan(0.8);
    expect(got.json.metadata.duration).toBeLessThan(1.3);
    expect(searchPassages(p.db, [files[ext].id], phraseOf(ext), 1)[0]?.text ?? '').toContain(phraseOf(ext));
  });

  it.each(['aac', 'avi', 'flv'])('%s: duration and streams from the headers', async (ext) => {
    const got = await call(p, 'GET', `/api/files/${files[ext].id}`);
    expect(got.json.status, got.json.error).toBe('completed');
    expect(got.json.metadata.duration).toBeGreaterThan(0.8);
    expect(got.json.metadata.duration).toBeLessThan(1.3);
  });

  it.each(['mp4', 'mov', 'avi', 'mkv', 'wmv', 'flv'])('%s: the video stream has its size', async (ext) => {
    const meta = (await call(p, 'GET', `/api/files/${files[ext].id}`)).json.metadata;
    const video = meta.streams.find((s: any) => s.type === 'video');
    expect(video, JSON.stringify(meta)).toBeTruthy();
    expect([video.width, video.height]).toEqual([64, 48]);
    expect(meta.streams.some((s: any) => s.type === 'audio')).toBe(true);
  });

  it.each(['jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'webp', 'png', 'svg'])('%s: dimensions', async (ext) => {
    const got = await call(p, 'GET', `/api/files/${files[ext].id}`);
    expect(got.json.status, got.json.error).toBe('completed');
    const size = { png: [40, 30], svg: [120, 80] }[ext as 'png'] ?? [32, 24];
    expect([got.json.metadata.width, got.json.metadata.height]).toEqual(size);
    // The description passage lets an agent find and describe the image.
    expect(searchPassages(p.db, [files[ext].id], 'image pixels', 1)[0].text).toContain(`${size[0]} × ${size[1]} pixels`);
  });

  it('the agent file set is completed with every file counted', async () => {
    const set = await call(p, 'GET', '/api/agents/1/files');
    expect(set.json.status).toBe('completed');
    expect(set.json.files).toHaveLength(ACCEPTED_EXTENSIONS.length);
    expect(p.services.files.linkedFileIds(1).sort((a, b) => a - b)).toEqual(Object.values(files).map((f) => f.id).sort((a, b) => a - b));
  });
});
