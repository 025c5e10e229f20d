import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makePlatform } from '../api/helpers.js';
import { listen, type RunningServer } from '../../src-main/platform/transports/http/server.js';
import type { Platform } from '../../src-main/platform/platform.js';

const REMOTE_KEY = 'remote-secret-key-4f1c2a';

/** The "remote" is a second Agent Desk on its own data dir, key and loopback port. */
describe('remote platform: connection, agent list, import', () => {
  let remote: Platform;
  let server: RunningServer;
  let local: Platform;

  beforeAll(async () => {
    remote = makePlatform({ envApiKey: REMOTE_KEY });
    await call(remote, 'POST', '/api/agents', { key: REMOTE_KEY, body: { title: 'Team Researcher', template_id: 'research-assistant', instructions: 'Cite team sources.' } });
    server = await listen(remote, { port: 0 });
    local = makePlatform();
  });
  afterAll(async () => {
    await local.close();
    await server.close();
  });

  const noKeyIn = (text: string) => expect(text).not.toContain(REMOTE_KEY);

  it('starts unconfigured, and says how to configure when used', async () => {
    const r = await call(local, 'GET', '/api/settings/remote');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ base_url: null, has_api_key: false, status: 'unconfigured', agent_count: 0 });
    const t = await call(local, 'POST', '/api/settings/remote/test');
    expect(t.status).toBe(422);
    expect(t.json.message).toMatch(/Settings → Remote|AGENT_DESK_REMOTE_URL/);
  });

  it('validates the base URL', async () => {
    for (const base_url of ['ftp://x', 'not a url', 'http://user:pw@host']) {
      const r = await call(local, 'PUT', '/api/settings/remote', { body: { base_url } });
      expect(r.status).toBe(422);
      expect(r.json.errors.base_url).toBeDefined();
    }
  });

  it('a wrong key gives a clear error, no 500, and never the key', async () => {
    const put = await call(local, 'PUT', '/api/settings/remote', { body: { base_url: server.url, api_key: 'wrong-key-123' } });
    expect(put.status).toBe(200);
    expect(put.json.status).toBe('offline');
    expect(put.json.last_error).toMatch(/refused the API key \(401\)/);
    const sync = await call(local, 'POST', '/api/remote/sync');
    expect(sync.status).toBe(502);
    expect(sync.json.message).toMatch(/refused the API key/);
    expect(sync.text).not.toContain('wrong-key-123');
  });

  it('connects, lists remote agents beside local ones with ids that never collide', async () => {
    const put = await call(local, 'PUT', '/api/settings/remote', { body: { base_url: server.url, api_key: REMOTE_KEY } });
    expect(put.status).toBe(200);
    noKeyIn(put.text);
    expect(put.json).toMatchObject({ base_url: server.url, has_api_key: true, status: 'online', agent_count: 5 });
    expect(put.json.last_sync_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    const test = await call(local, 'POST', '/api/settings/remote/test');
    expect(test.json).toMatchObject({ reachable: true, agent_count: 5, error: null });

    const list = await call(local, 'GET', '/api/agents?per_page=100');
    const localOnes = list.json.data.filter((a: any) => a.source === 'local');
    const remoteOnes = list.json.data.filter((a: any) => a.source === 'remote');
    expect(localOnes).toHaveLength(4);
    expect(remoteOnes).toHaveLength(5);
    const ids = list.json.data.map((a: any) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    const researcher = remoteOnes.find((a: any) => a.title === 'Team Researcher');
    expect(researcher.slug).toBe('remote-team-researcher');
    expect(researcher.instructions).toBe('Cite team sources.');
    const settingsText = (await call(local, 'GET', '/api/settings/remote')).text;
    noKeyIn(settingsText);
  });

  it('a remote agent is read-only here except share_context', async () => {
    const remoteAgent = (await call(local, 'GET', '/api/agents?per_page=100')).json.data.find((a: any) => a.source === 'remote');
    const bad = await call(local, 'PATCH', `/api/agents/${remoteAgent.id}`, { body: { title: 'Renamed' } });
    expect(bad.status).toBe(422);
    const ok = await call(local, 'PATCH', `/api/agents/${remoteAgent.id}`, { body: { share_context: true } });
    expect(ok.status).toBe(200);
    expect(ok.json.share_context).toBe(true);
  });

  it('imports a remote agent into a local one with its questions and instructions', async () => {
    const researcher = (await call(local, 'GET', '/api/agents?per_page=100&q=researcher')).json.data.find((a: any) => a.source === 'remote');
    const r = await call(local, 'POST', `/api/agents/${researcher.id}/import`);
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ source: 'local', title: 'Team Researcher', instructions: 'Cite team sources.', type: 'chat' });
    expect(r.json.questions).toEqual(researcher.questions);
    expect(r.json.id).not.toBe(researcher.id);
    const again = await call(local, 'POST', `/api/agents/${r.json.id}/import`);
    expect(again.status).toBe(422);
  });

  it('keeps the cached agents readable when the remote goes offline', async () => {
    const down = makePlatform({ envApiKey: REMOTE_KEY });
    const s2 = await listen(down, { port: 0 });
    const url = s2.url;
    await s2.close();
    // A new address takes its key again (a stored key goes only where it was entered for).
    const put = await call(local, 'PUT', '/api/settings/remote', { body: { base_url: url, api_key: REMOTE_KEY } });
    expect(put.json.status, put.text).toBe('offline');
    expect(put.json.last_error).toMatch(/unreachable/);
    const list = await call(local, 'GET', '/api/agents?per_page=100');
    expect(list.json.data.filter((a: any) => a.source === 'remote')).toHaveLength(5);
    const sync = await call(local, 'POST', '/api/remote/sync');
    expect(sync.status).toBe(502);
    expect(sync.json.message).toMatch(/unreachable/);
  });

  it('disconnecting forgets the cached agents', async () => {
    const r = await call(local, 'PUT', '/api/settings/remote', { body: { base_url: null, api_key: null } });
    expect(r.json).toMatchObject({ status: 'unconfigured', agent_count: 0, has_api_key: false });
    const list = await call(local, 'GET', '/api/agents?per_page=100');
    expect(list.json.data.every((a: any) => a.source === 'local')).toBe(true);
  });

  it('stores the key through the platform secret box (safeStorage in the desktop app)', async () => {
    const box = {
      encrypted: true,
      seal: (s: string) => `box:${Buffer.from(s).toString('base64')}`,
      open: (s: string) => Buffer.from(s.slice(4), 'base64').toString(),
    };
    const sealed = makePlatform({ secrets: box });
    try {
      const put = await call(sealed, 'PUT', '/api/settings/remote', { body: { base_url: server.url, api_key: REMOTE_KEY } });
      expect(put.json).toMatchObject({ status: 'online', key_encrypted: true });
      const row = sealed.db.prepare("SELECT value FROM settings WHERE key = 'remote'").get() as { value: string };
      expect(row.value).not.toContain(REMOTE_KEY);
    } finally {
      await sealed.close();
    }
  });

  it('is seeded from AGENT_DESK_REMOTE_URL and AGENT_DESK_REMOTE_API_KEY', async () => {
    const seeded = makePlatform({ env: { AGENT_DESK_REMOTE_URL: `${server.url}/`, AGENT_DESK_REMOTE_API_KEY: REMOTE_KEY } });
    try {
      const r = await call(seeded, 'GET', '/api/settings/remote');
      expect(r.json).toMatchObject({ base_url: server.url, has_api_key: true });
      const sync = await call(seeded, 'POST', '/api/remote/sync');
      expect(sync.status).toBe(200);
      expect(sync.json.synced).toBe(5);
    } finally {
      await seeded.close();
    }
  });
});
