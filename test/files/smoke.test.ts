import { afterAll, describe, expect, it } from 'vitest';
import { call, makePlatform } from '../api/helpers.js';
import { upload } from './helpers.js';

describe('files smoke', () => {
  const p = makePlatform();
  afterAll(() => p.close());

  it('uploads, processes and finds a phrase', async () => {
    const up = await upload(p, 'notes.txt', 'Hello world.\n\nThe purple kangaroo sings at midnight.');
    expect(up.status).toBe(200);
    expect(up.json.status).toBe('waiting');
    const pr = await call(p, 'POST', `/api/files/${up.json.id}/process`);
    expect(pr.status).toBe(200);
    console.log(pr.json);
    expect(pr.json).toMatchObject({ status: 'completed' });
    const hits = p.services.files.searchPassages([up.json.id], 'kangaroo midnight', 5);
    expect(hits[0].text).toContain('purple kangaroo');
  });
});
