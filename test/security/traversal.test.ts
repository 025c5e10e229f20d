/**
 * Path traversal is impossible through any id or filename: every route with a parameter gets
 * ids aimed at a sentinel file next to the data dir; uploads get names aimed outside it. The
 * sentinel is never read or changed, nothing appears outside the data dir, and stored bytes
 * are named by id, never by the upload's name (CONTRACT.md "Localhost safety").
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BASE, KEY, tempDir } from '../api/helpers.js';
import { concreteRoutes, servePlatform, stop } from './helpers.js';
import { problemsWith } from '../fuzz/answers.js';

const outer = tempDir('agent-desk-traversal-');
const dataDir = path.join(outer, 'data');
const SENTINEL = 'SENTINEL-7f3a-do-not-read';
fs.writeFileSync(path.join(outer, 'secret.txt'), SENTINEL);
const p = servePlatform({ dataDir });
afterAll(async () => {
  await stop(p);
  fs.rmSync(outer, { recursive: true, force: true });
});

const TRAVERSAL = [
  '..%2Fsecret.txt',
  '..%2F..%2Fsecret.txt',
  '%2E%2E%2Fsecret.txt',
  '..%5Csecret.txt',
  '%2e%2e%5c%2e%2e%5csecret.txt',
  '..%252Fsecret.txt',
  '%C0%AE%C0%AE%2Fsecret.txt',
  'secret.txt%00',
  '1%00..%2Fsecret.txt',
  encodeURIComponent(path.join(outer, 'secret.txt')),
  encodeURIComponent('file://' + path.join(outer, 'secret.txt')),
];

function listTree(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    out.push(full);
    if (e.isDirectory()) out.push(...listTree(full));
  }
  return out;
}

async function send(method: string, url: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}) {
  const res = await p.app.request(`${BASE}${url}`, { method, headers: { host: '127.0.0.1:8787', authorization: `Bearer ${KEY}`, ...init.headers }, body: init.body });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('path traversal', () => {
  const withParams = concreteRoutes(p.app).filter((r) => r.path.includes(':') && r.method !== 'ALL');

  it('no id in any route reaches a file outside the data dir', async () => {
    expect(withParams.length).toBeGreaterThan(5);
    const outside = () => fs.readdirSync(outer).sort();
    const before = outside();
    for (const r of withParams) {
      for (const t of TRAVERSAL) {
        const url = r.path.replace(/:[^/]+/g, t);
        const body = r.method === 'GET' || r.method === 'HEAD' ? undefined : JSON.stringify({ name: t, memory: t, url: `http://127.0.0.1:9/${t}`, method: 'POST' });
        const a = await send(r.method, url, { body, headers: { 'content-type': 'application/json' } });
        expect(a.text, `${r.method} ${url}`).not.toContain(SENTINEL);
        expect(problemsWith(a, { method: r.method, url }), `${r.method} ${url}`).toEqual([]);
        // An id that is not a plain positive integer names nothing.
        expect(a.status, `${r.method} ${url}`).toBeGreaterThanOrEqual(400);
      }
    }
    expect(fs.readFileSync(path.join(outer, 'secret.txt'), 'utf8')).toBe(SENTINEL);
    expect(outside()).toEqual(before);
  });

  const upload = concreteRoutes(p.app).find((r) => r.method === 'POST' && r.path === '/api/files');
  it.skipIf(!upload)('upload names never become paths: bytes are stored by id, nothing lands outside the data dir', async () => {
    const names = ['../../secret.txt', '..\\..\\secret.txt', '/etc/passwd.txt', `${outer}/escaped.txt`, '%2e%2e%2fescaped.txt', 'a/../../escaped.txt', 'ok.txt'];
    for (const name of names) {
      const form = new FormData();
      form.append('file', new Blob([`bytes of ${name}`]), name);
      const a = await send('POST', '/api/files', { body: form });
      expect(problemsWith(a, { method: 'POST', url: '/api/files' }), name).toEqual([]);
      expect(a.status, `${name}: ${a.text.slice(0, 200)}`).toBeLessThan(500);
    }
    expect(fs.readFileSync(path.join(outer, 'secret.txt'), 'utf8')).toBe(SENTINEL);
    expect(fs.readdirSync(outer).sort()).toEqual(['data', 'secret.txt']);
    for (const f of listTree(dataDir)) expect(path.basename(f), f).not.toMatch(/escaped|passwd|secret/);
    // Stored bytes are named by id only.
    const stored = fs.readdirSync(path.join(dataDir, 'files'), { withFileTypes: true }).filter((e) => e.isFile());
    expect(stored.length).toBeGreaterThan(0);
    for (const e of stored) expect(e.name).toMatch(/^\d+$/);
  });
});
