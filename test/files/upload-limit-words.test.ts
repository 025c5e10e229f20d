import { afterAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { upload } from './helpers.js';
import { generalSentence } from '../../src-renderer/api/field-errors.js';
import { errorFrom } from '../../src-renderer/api/errors.js';

/** The upload limit is told before a file is sent (GET /api/app) and named when one is refused. */
describe('the upload limit, stated', () => {
  const p = makePlatform({ maxUploadBytes: 1024 * 1024 });
  afterAll(() => closePlatform(p));

  it('GET /api/app tells the largest upload, and a larger file is refused naming that limit', async () => {
    const info = (await call(p, 'GET', '/api/app')).json;
    expect(info.max_upload_bytes).toBe(1024 * 1024);
    const over = await upload(p, 'big.txt', 'a'.repeat(info.max_upload_bytes + 1));
    expect(over.status).toBe(413);
    expect(over.json).toEqual({ message: 'The file must not be greater than 1 MB.' });
    // The app's sentence keeps the number: a person learns what would fit.
    expect(generalSentence(errorFrom(413, over.text))).toBe('That file is too large: the limit is 1 MB. Try a smaller file.');
    expect((await upload(p, 'fits.txt', 'a'.repeat(info.max_upload_bytes))).status).toBe(200);
  });

  it('a request body over its limit is worded with its limit too', () => {
    expect(generalSentence(errorFrom(413, JSON.stringify({ message: 'The request body is too large (limit 4096 KB).' })))).toBe('That is too large: the limit is 4 MB. Try a shorter text or a smaller file.');
    expect(generalSentence(errorFrom(413, '{}'))).toBe('That is too large for Agent Desk to take. Try a smaller file or a shorter text.');
  });
});
