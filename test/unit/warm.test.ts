import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { requestSchemas, warmRequestPath, type WarmableApp } from '../../src-main/platform/transports/http/warm.js';
import { ExecuteBody } from '../../src-main/platform/contract/executions.js';
import { makePlatform } from '../api/helpers.js';
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
  it("finds the app's request schemas, the execute body among them", () => {
    p = makePlatform();
    const schemas = requestSchemas(p.app);
    expect(schemas).toContain(ExecuteBody);
    expect(schemas.length).toBeGreaterThan(20);
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
