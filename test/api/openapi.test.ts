/**
 * /api/openapi.json: a valid OpenAPI 3.1 document that lists every route the app serves, whose
 * schemas are valid JSON Schema 2020-12 and really describe the answers the app gives.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from './helpers.js';

/** The operations of the spec (and CONTRACT.md exts) that the headless platform serves. */
const ISSUE_2_OPERATIONS = [
  'GET /api/resources',
  'GET /api/agents',
  'GET /api/agents/{id}',
  'POST /api/agents',
  'PATCH /api/agents/{id}',
  'DELETE /api/agents/{id}',
  'GET /api/memories',
  'POST /api/memories',
  'PATCH /api/memories/{memoryId}',
  'DELETE /api/memories/{memoryId}',
  'GET /api/memory-collections',
  'POST /api/memory-collections',
  'PUT /api/memory-collections/{collectionId}',
  'DELETE /api/memory-collections/{collectionId}',
  'POST /api/agents/{id}/webhooks',
  'GET /api/agents/{id}/webhooks',
  'GET /api/webhooks',
  'PATCH /api/webhooks/{id}',
  'DELETE /api/webhooks/{id}',
  'GET /api/keys',
  'POST /api/keys',
  'DELETE /api/keys/{id}',
];
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Served, but not API operations: the document itself and its HTML page. */
const NOT_OPERATIONS = new Set(['GET /api/openapi.json', 'GET /api/docs']);

describe('OpenAPI document', () => {
  const p = makePlatform();
  let doc: any;
  beforeAll(async () => {
    const r = await call(p, 'GET', '/api/openapi.json', { key: null });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    doc = r.json;
  });
  afterAll(() => closePlatform(p));

  const operations = () =>
    Object.entries<any>(doc.paths).flatMap(([path, item]) => Object.keys(item).filter((m) => METHODS.includes(m)).map((m) => ({ path, method: m, op: item[m] })));

  it('is OpenAPI 3.1 with the required top-level fields', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(typeof doc.info.title).toBe('string');
    expect(typeof doc.info.version).toBe('string');
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
    for (const path of Object.keys(doc.paths)) expect(path.startsWith('/')).toBe(true);
  });

  it('lists every operation of the spec and every /api route the app serves', () => {
    const documented = new Set(operations().map((o) => `${o.method.toUpperCase()} ${o.path}`));
    for (const op of ISSUE_2_OPERATIONS) expect(documented, op).toContain(op);
    const served = new Set(
      p.app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]\w*)(\{[^}]*\})?/g, '{$1}')}`),
    );
    for (const s of served) if (s.includes(' /api/') && !NOT_OPERATIONS.has(s)) expect(documented, s).toContain(s);
    for (const d of documented) expect(served, d).toContain(d);
  });

  it('every operation is well formed: unique operationId if any, path params declared, responses, bearer security', () => {
    const ids = new Set<string>();
    for (const { path, method, op } of operations()) {
      const where = `${method} ${path}`;
      if (op.operationId) {
        expect(ids.has(op.operationId), where).toBe(false);
        ids.add(op.operationId);
      }
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? []).filter((x: any) => x.in === 'path');
      expect(declared.map((x: any) => x.name).sort(), where).toEqual(templated);
      for (const d of declared) expect(d.required, where).toBe(true);
      for (const x of op.parameters ?? []) expect(['query', 'header', 'path', 'cookie']).toContain(x.in);
      expect(Object.keys(op.responses ?? {}).length, where).toBeGreaterThan(0);
      for (const code of Object.keys(op.responses)) expect(code).toMatch(/^([1-5]\d\d|[1-5]XX|default)$/);
      expect(op.security ?? doc.security, where).toEqual([{ bearerAuth: [] }]);
      expect(op.responses['401'], where).toBeDefined();
    }
  });

  it('every $ref resolves and every schema compiles as JSON Schema 2020-12', () => {
    const refs: string[] = [];
    const walk = (v: any) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (k === '$ref' && typeof x === 'string') refs.push(x);
          else walk(x);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref.startsWith('#/')).toBe(true);
      const target = ref.slice(2).split('/').reduce((o: any, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
      expect(target, ref).toBeDefined();
    }
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    for (const name of Object.keys(doc.components.schemas ?? {})) {
      expect(() => ajv.getSchema(`doc#/components/schemas/${name}`), name).not.toThrow();
    }
  });

  it('the documented 200/201 schemas accept the real answers', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const schemaOf = (path: string, method: string, status: string) => {
      const s = doc.paths[path][method].responses[status].content['application/json'].schema;
      return ajv.compile(JSON.parse(JSON.stringify(s).replace(/"#\/components/g, '"doc#/components')));
    };
    const col = (await call(p, 'POST', '/api/memory-collections', { body: { name: 'c' } })).json.collection;
    const mem = (await call(p, 'POST', '/api/memories', { body: { memory: 'm', collection_id: col.id } })).json.memory;
    const hook = (await call(p, 'POST', '/api/agents/1/webhooks', { body: { url: 'http://localhost/x', method: 'POST' } })).json;
    const checks: [string, string, string, string, unknown?][] = [
      ['get', '/api/resources', '/api/resources', '200'],
      ['get', '/api/agents', '/api/agents', '200'],
      ['get', '/api/agents/{id}', '/api/agents/1', '200'],
      ['post', '/api/agents', '/api/agents', '201', { title: 'OpenAPI' }],
      ['get', '/api/memories', '/api/memories', '200'],
      ['patch', '/api/memories/{memoryId}', `/api/memories/${mem.id}`, '200', { memory: 'n' }],
      ['get', '/api/memory-collections', '/api/memory-collections', '200'],
      ['put', '/api/memory-collections/{collectionId}', `/api/memory-collections/${col.id}`, '200', { name: 'd' }],
      ['get', '/api/agents/{id}/webhooks', '/api/agents/1/webhooks', '200'],
      ['get', '/api/webhooks', '/api/webhooks', '200'],
      ['patch', '/api/webhooks/{id}', `/api/webhooks/${hook.id}`, '200', { status: 'inactive' }],
      ['post', '/api/agents/{id}/webhooks', '/api/agents/1/webhooks', '201', { url: 'http://localhost/y', method: 'POST' }],
      ['get', '/api/keys', '/api/keys', '200'],
    ];
    for (const [method, path, url, status, body] of checks) {
      const r = await call(p, method.toUpperCase(), url, { body });
      expect(String(r.status), url).toBe(status);
      const validate = schemaOf(path, method, status);
      expect(validate(r.json), `${method} ${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(validate({}), `${method} ${path} accepts anything`).toBe(false);
    }
    const bad = await call(p, 'GET', '/api/agents?page=0');
    const v422 = schemaOf('/api/agents', 'get', '422');
    expect(v422(bad.json)).toBe(true);
  });
});
