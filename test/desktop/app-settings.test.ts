import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import type { Platform } from '../../src-main/platform/platform.js';
import { UsageService } from '../../src-main/platform/modules/usage/service.js';
import { LOCALHOST_SETTINGS_EVENT } from '../../src-main/platform/kernel/events.js';
import { executionCredits, fileCredits } from '../../src-main/platform/kernel/credits.js';

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
const DAY = 86_400_000;

describe('GET /api/app', () => {
  const platforms: (Platform & { dir: string })[] = [];
  afterAll(async () => {
    for (const p of platforms) await closePlatform(p);
  });

  it('tells the version, the data dir and whether secrets are encrypted', async () => {
    const plain = makePlatform();
    const sealed = makePlatform({ secrets: { encrypted: true, seal: (s) => `x:${s}`, open: (s) => s.slice(2) } });
    platforms.push(plain, sealed);
    const a = await call(plain, 'GET', '/api/app');
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ version: pkg.version, data_dir: plain.dir, secrets_encrypted: false, platform: process.platform, electron: null });
    expect(a.json.schema_version).toBeGreaterThanOrEqual(3);
    expect((await call(sealed, 'GET', '/api/app')).json.secrets_encrypted).toBe(true);
    expect((await call(plain, 'GET', '/api/app', { key: null })).status).toBe(401);
  });
});

describe('/api/settings/localhost', () => {
  let p: Platform & { dir: string };
  beforeAll(() => {
    p = makePlatform();
  });
  afterAll(() => closePlatform(p));

  it('starts on, at port 8787, with nothing extra allowed', async () => {
    const res = await call(p, 'GET', '/api/settings/localhost');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ enabled: true, port: 8787, allowed_hosts: [], allowed_origins: [], from_env: { allowed_hosts: [], allowed_origins: [] } });
  });

  it('updates only the given fields, normalizes lists and tells the shell', async () => {
    const seen: unknown[] = [];
    p.events.on(LOCALHOST_SETTINGS_EVENT, (v) => seen.push(v));
    const res = await call(p, 'PUT', '/api/settings/localhost', {
      body: { port: 9123, allowed_hosts: ['My-PC.local', 'my-pc.local', '192.168.1.20:8787'], allowed_origins: ['https://n8n.example.com/', 'http://localhost:5678'] },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ enabled: true, port: 9123, allowed_hosts: ['my-pc.local', '192.168.1.20:8787'], allowed_origins: ['https://n8n.example.com', 'http://localhost:5678'] });
    expect(seen).toEqual([res.json]);
    const off = await call(p, 'PUT', '/api/settings/localhost', { body: { enabled: false } });
    expect(off.json).toMatchObject({ enabled: false, port: 9123, allowed_hosts: ['my-pc.local', '192.168.1.20:8787'] });
    expect((await call(p, 'GET', '/api/settings/localhost')).json).toEqual(off.json);
  });

  it('feeds the Host guard and CORS, which read the same keys', async () => {
    await call(p, 'PUT', '/api/settings/localhost', { body: { allowed_hosts: ['my-pc.local'], allowed_origins: ['https://n8n.example.com'] } });
    expect((await call(p, 'GET', '/api/agents', { headers: { host: 'my-pc.local:8787' } })).status).toBe(200);
    expect((await call(p, 'GET', '/api/agents', { headers: { host: 'other.local' } })).status).toBe(403);
    const cors = await call(p, 'GET', '/api/agents', { headers: { origin: 'https://n8n.example.com' } });
    expect(cors.headers.get('access-control-allow-origin')).toBe('https://n8n.example.com');
  });

  it.each([
    [{ port: 0 }, 'port'],
    [{ port: 70000 }, 'port'],
    [{ port: '8080' }, 'port'],
    [{ enabled: 'yes' }, 'enabled'],
    [{ allowed_hosts: ['http://evil.example'] }, 'allowed_hosts.0'],
    [{ allowed_hosts: ['a b'] }, 'allowed_hosts.0'],
    [{ allowed_hosts: 'my-pc.local' }, 'allowed_hosts'],
    [{ allowed_origins: ['https://x.example/path'] }, 'allowed_origins.0'],
    [{ allowed_origins: ['ftp://x.example'] }, 'allowed_origins.0'],
    [{ allowed_origins: ['not a url'] }, 'allowed_origins.0'],
    [{ prot: 1 }, ''],
  ])('refuses %j with 422', async (body, field) => {
    const res = await call(p, 'PUT', '/api/settings/localhost', { body });
    expect(res.status).toBe(422);
    expect(typeof res.json.message).toBe('string');
    if (field) expect(Object.keys(res.json.errors)).toContain(field);
  });

  it('answers 400 to a body that is not JSON', async () => {
    const res = await call(p, 'PUT', '/api/settings/localhost', { raw: '{port:', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
  });
});

describe('usage', () => {
  let p: Platform & { dir: string };
  const now = Date.parse('2026-03-10T15:00:00Z');
  const at = (iso: string) => Date.parse(iso) * 1000;

  beforeAll(() => {
    p = makePlatform();
    const db = p.db;
    db.prepare("INSERT INTO users(id, name, created_at) VALUES (2, 'other', 0)").run();
    db.prepare("INSERT INTO workspaces(id, name, created_at) VALUES (2, 'theirs', 0)").run();
    db.prepare('INSERT INTO workspace_members(workspace_id, user_id) VALUES (2, 2)').run();
    const exec = db.prepare("INSERT INTO executions(agent_id, user_id, status, credits, created_at, updated_at) VALUES (1, ?, 'succeeded', ?, ?, ?)");
    const e = (user: number, credits: number | null, iso: string) => exec.run(user, credits, at(iso), at(iso));
    e(1, executionCredits(1000, 500), '2026-03-10T01:00:00Z');
    e(1, executionCredits(2000, 0), '2026-03-10T14:00:00Z');
    e(1, null, '2026-03-09T23:59:59Z'); // still running: counts, no credits yet
    e(1, 0.5, '2026-02-01T00:00:00Z'); // outside a 7-day window
    e(2, 9, '2026-03-10T02:00:00Z'); // another user
    const file = db.prepare(
      "INSERT INTO files(workspace_id, filename, ext, kind, bytes, sha256, status, credits, created_at, updated_at, processed_at) VALUES (?, 'f.txt', 'txt', 'text', ?, 'x', ?, ?, ?, ?, ?)",
    );
    const f = (ws: number, bytes: number, status: string, processedIso: string | null) =>
      file.run(ws, bytes, status, processedIso ? fileCredits(bytes) : 0, at('2026-03-01T00:00:00Z'), at('2026-03-01T00:00:00Z'), processedIso ? at(processedIso) : null);
    f(1, 1024 * 1024, 'completed', '2026-03-08T12:00:00Z');
    f(1, 10, 'waiting', null);
    f(2, 1024 * 1024, 'completed', '2026-03-08T12:00:00Z');
  });
  afterAll(() => closePlatform(p));

  it('sums credits per UTC day for the user only, with a zero for quiet days', () => {
    const u = new UsageService(p.db, () => now).perDay(1, 7);
    expect(u.from).toBe('2026-03-04');
    expect(u.to).toBe('2026-03-10');
    expect(u.data.map((d) => d.date)).toEqual(['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']);
    const byDate = Object.fromEntries(u.data.map((d) => [d.date, d]));
    const execToday = executionCredits(1000, 500) + executionCredits(2000, 0);
    expect(byDate['2026-03-10']).toMatchObject({ executions: 2, files: 0, file_credits: 0 });
    expect(byDate['2026-03-10'].execution_credits).toBeCloseTo(execToday, 6);
    expect(byDate['2026-03-09']).toEqual({ date: '2026-03-09', executions: 1, execution_credits: 0, files: 0, file_credits: 0, credits: 0 });
    expect(byDate['2026-03-08']).toMatchObject({ executions: 0, files: 1, file_credits: fileCredits(1024 * 1024), credits: fileCredits(1024 * 1024) });
    expect(byDate['2026-03-05'].credits).toBe(0);
    expect(u.executions).toBe(3);
    expect(u.files).toBe(1);
    expect(u.total_credits).toBeCloseTo(execToday + fileCredits(1024 * 1024), 6);
    expect(u.formula.executionBase).toBe(0.01);
  });

  it('counts the other user their own', () => {
    const u = new UsageService(p.db, () => now).perDay(2, 1);
    expect(u.data).toEqual([{ date: '2026-03-10', executions: 1, execution_credits: 9, files: 0, file_credits: 0, credits: 9 }]);
  });

  it('answers GET /api/usage with 30 days by default and validates days', async () => {
    const res = await call(p, 'GET', '/api/usage');
    expect(res.status).toBe(200);
    expect(res.json.days).toBe(30);
    expect(res.json.data).toHaveLength(30);
    expect(res.json.to).toBe(new Date().toISOString().slice(0, 10));
    expect((await call(p, 'GET', '/api/usage?days=7')).json.data).toHaveLength(7);
    for (const bad of ['0', '367', 'abc', '1.5', '-3']) {
      const r = await call(p, 'GET', `/api/usage?days=${bad}`);
      expect(r.status, bad).toBe(422);
      expect(r.json.errors).toHaveProperty('days');
    }
  });

  it('reads an older database without the executions and files tables', () => {
    const fake = { prepare: (sql: string) => ({ get: () => undefined, all: () => { throw new Error(`should not query: ${sql}`); } }) };
    const u = new UsageService(fake as any, () => now).perDay(1, 2);
    expect(u.total_credits).toBe(0);
    expect(u.data).toHaveLength(2);
  });

  it('moves the window with time', () => {
    const later = new UsageService(p.db, () => now + 3 * DAY).perDay(1, 2);
    expect(later.data.map((d) => d.date)).toEqual(['2026-03-12', '2026-03-13']);
    expect(later.total_credits).toBe(0);
  });
});
