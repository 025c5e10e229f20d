/**
 * The headless CLI over real HTTP: `serve --port 0` prints its URL, answers the API, stops with
 * exit 0 on SIGTERM; `keys create|list|revoke` manage keys that the running server honours.
 */
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';
import { runCli, startServer, type ServerProcess } from './server-process.js';
import { expectShapeB } from './spec-shapes.js';
import { limit } from '../fixtures/until.js';

/** A raw request, so that the Host header can be anything. */
function raw(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; json: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        let json: any;
        try {
          json = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode!, headers: res.headers, json });
      });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('cli serve', () => {
  const dir = tempDir('agent-desk-cli-');
  const KEY = 'cli-test-key-0123456789';
  const servers: ServerProcess[] = [];
  afterAll(() => {
    servers.forEach((s) => s.kill());
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('prints the listening line, serves the API over real HTTP, and exits 0 on SIGTERM', async () => {
    const s = await startServer({ dataDir: dir, env: { AGENT_DESK_API_KEY: KEY } });
    servers.push(s);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const port = new URL(s.url).port;
    const auth = { authorization: `Bearer ${KEY}` };

    const list = await raw(`${s.url}/api/agents?per_page=2`, { headers: auth });
    expect(list.status).toBe(200);
    expectShapeB(list.json);
    // Absolute URLs from the request's own Host.
    expect(list.json.path).toBe(`http://127.0.0.1:${port}/api/agents`);
    const viaLocalhost = await raw(`${s.url}/api/agents?per_page=2`, { headers: { ...auth, host: `localhost:${port}` } });
    expect(viaLocalhost.json.first_page_url).toBe(`http://localhost:${port}/api/agents?page=1&per_page=2`);

    const created = await raw(`${s.url}/api/memories`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ memory: 'over the wire' }) });
    expect(created.status).toBe(200);
    expect(created.json.memory.memory).toBe('over the wire');
    // curl -d labels JSON as a form; it is still read as JSON.
    const curlish = await raw(`${s.url}/api/memories`, { method: 'POST', headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' }, body: '{"memory":"from curl"}' });
    expect(curlish.status).toBe(200);

    expect((await raw(`${s.url}/api/agents`)).status).toBe(401);
    expect((await raw(`${s.url}/api/agents`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    const foreign = await raw(`${s.url}/api/agents`, { headers: { ...auth, host: 'evil.example' } });
    expect(foreign.status).toBe(403);
    expect(typeof foreign.json.message).toBe('string');
    const cors = await raw(`${s.url}/api/agents`, { headers: { ...auth, origin: 'https://evil.example' } });
    expect(cors.headers['access-control-allow-origin']).toBeUndefined();
    expect((await raw(`${s.url}/api/nope`, { headers: auth })).json).toEqual({ message: 'Not found.' });
    expect((await raw(`${s.url}/api/openapi.json`)).json.openapi).toMatch(/^3\.1/);

    s.child.kill('SIGTERM');
    expect(await s.exited).toEqual({ code: 0, signal: null });
    await expect(raw(`${s.url}/api/agents`, { headers: auth })).rejects.toThrow();
  }, limit(90_000));

  it('keys create|list|revoke: a created key authenticates, a revoked one does not', async () => {
    const made = await runCli(['keys', 'create', 'ci-bot', '--data-dir', dir]);
    expect(made.code, made.stderr).toBe(0);
    const key = /^(ad_\S+)$/m.exec(made.stdout)?.[1];
    const id = /Created key (\d+)/.exec(made.stdout)?.[1];
    expect(key && id, made.stdout).toBeTruthy();

    const listed = await runCli(['keys', 'list', '--data-dir', dir]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\t\\S+…\\tci-bot\\tcreated `, 'm'));
    expect(listed.stdout).not.toContain(key);

    // No AGENT_DESK_API_KEY: only stored keys open the door.
    const s = await startServer({ dataDir: dir });
    servers.push(s);
    expect((await raw(`${s.url}/api/agents`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    expect((await raw(`${s.url}/api/agents`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(401);

    // Revoked from another process while the server runs: refused at once.
    const revoked = await runCli(['keys', 'revoke', id!, '--data-dir', dir]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`Revoked key ${id}`);
    const after = await raw(`${s.url}/api/agents`, { headers: { authorization: `Bearer ${key}` } });
    expect(after.status).toBe(401);
    expect(after.json).toEqual({ message: 'Unauthenticated.' });

    s.child.kill('SIGTERM');
    expect((await s.exited).code).toBe(0);
  }, limit(120_000));

  it('refuses bad arguments with a usage message and exit code 2', async () => {
    const [badPort, noName, badId] = await Promise.all([
      runCli(['serve', '--port', 'http', '--data-dir', dir]),
      runCli(['keys', 'create', '--data-dir', dir]),
      runCli(['keys', 'revoke', 'abc', '--data-dir', dir]),
    ]);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('Invalid port: http');
    expect(noName.code).toBe(2);
    expect(noName.stderr).toMatch(/Usage/);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toMatch(/Usage/);
  }, limit(90_000));
});
