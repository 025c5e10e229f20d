import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { requestSchemas, warmRequestPath, type WarmableApp } from '../../src-main/platform/transports/http/warm.js';
import { KEY, makePlatform } from '../api/helpers.js';
import type { Platform } from '../../src-main/platform/platform.js';

let p: (Platform & { dir: string }) | null = null;
afterEach(async () => {
  if (p) {
    await p.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
    p = null;
  }
});

describe('the request path is warmed after listen', () => {
  it('finds one request schema for each JSON body, query and path the served OpenAPI document lists', async () => {
    p = makePlatform();
    const res = await p.app.request('/api/openapi.json', { headers: { authorization: `Bearer ${KEY}`, host: '127.0.0.1:8787' } });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> }; parameters?: { in: string }[] }>> };
    let documented = 0;
    const execute: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const op of Object.values(item)) {
        const parts = [op.requestBody?.content?.['application/json'] ? 'body' : '', op.parameters?.some((x) => x.in === 'query') ? 'query' : '', op.parameters?.some((x) => x.in === 'path') ? 'path' : ''].filter(Boolean);
        documented += parts.length;
        if (path === '/api/agents/{id}/execute') execute.push(...parts);
      }
    }
    // The spec's execute takes a JSON body and the agent's id in the path: both get warmed.
    expect(execute).toEqual(expect.arrayContaining(['body', 'path']));
    expect(documented).toBeGreaterThan(20);
    expect(requestSchemas(p.app)).toHaveLength(documented);
  });

  it('makes one request through the app and parses every schema once', async () => {
    const paths: string[] = [];
    const parsed: unknown[] = [];
    const schema = (name: string) => ({ safeParse: (v: unknown) => parsed.push([name, v]) });
    const app: WarmableApp = {
      request: (path) => {
        paths.push(path);
        return new Response(null, { status: 401 });
      },
      openAPIRegistry: {
        definitions: [
          { type: 'route', route: { request: { body: { content: { 'application/json': { schema: schema('body') } } }, query: schema('query') } } },
          { type: 'route', route: { request: { params: schema('params') } } },
          { type: 'component', route: { request: { query: schema('not a route') } } },
        ],
      },
    };
    await warmRequestPath(app);
    expect(paths).toHaveLength(1);
    expect(parsed).toEqual([
      ['body', {}],
      ['query', {}],
      ['params', {}],
    ]);
  });

  it('never throws: a failing step only leaves its cost to the first request', async () => {
    const app: WarmableApp = {
      request: () => {
        throw new Error('no router');
      },
    };
    await expect(warmRequestPath(app)).resolves.toBeUndefined();
  });
});
