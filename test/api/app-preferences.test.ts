/** ext app setting `locale` (CONTRACT "Locale and voice"): en, pt-BR or null (the system's), kept across restarts. */
import { afterAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from './helpers.js';
import { expect422 } from './spec-shapes.js';

describe('GET|PUT /api/settings/app', () => {
  let p = makePlatform();
  afterAll(() => closePlatform(p));

  it('starts with no language chosen (follow the system), keeps a choice across a restart, and goes back to null', async () => {
    expect(await call(p, 'GET', '/api/settings/app')).toMatchObject({ status: 200, json: { locale: null } });
    expect(await call(p, 'PUT', '/api/settings/app', { body: { locale: 'pt-BR' } })).toMatchObject({ status: 200, json: { locale: 'pt-BR' } });
    // Omitted fields stay as they are.
    expect(await call(p, 'PUT', '/api/settings/app', { body: {} })).toMatchObject({ status: 200, json: { locale: 'pt-BR' } });

    const dir = p.dir;
    await p.close();
    p = makePlatform({ dataDir: dir });
    expect(await call(p, 'GET', '/api/settings/app')).toMatchObject({ status: 200, json: { locale: 'pt-BR' } });
    expect(await call(p, 'PUT', '/api/settings/app', { body: { locale: 'en' } })).toMatchObject({ json: { locale: 'en' } });
    expect(await call(p, 'PUT', '/api/settings/app', { body: { locale: null } })).toMatchObject({ json: { locale: null } });
    expect(await call(p, 'GET', '/api/settings/app')).toMatchObject({ json: { locale: null } });
  });

  it('refuses a language the app is not written in, or an unknown field, with a 422 in the contract shape', async () => {
    expect422(await call(p, 'PUT', '/api/settings/app', { body: { locale: 'fr' } }), 'locale', 'The selected locale is invalid.');
    expect422(await call(p, 'PUT', '/api/settings/app', { body: { locale: 'pt-br' } }), 'locale');
    expect((await call(p, 'PUT', '/api/settings/app', { body: { theme: 'dark' } })).status).toBe(422);
    expect(await call(p, 'GET', '/api/settings/app')).toMatchObject({ json: { locale: null } });
  });

  it('needs the key', async () => {
    expect((await call(p, 'GET', '/api/settings/app', { key: null })).status).toBe(401);
    expect((await call(p, 'PUT', '/api/settings/app', { key: null, body: { locale: 'en' } })).status).toBe(401);
  });
});
