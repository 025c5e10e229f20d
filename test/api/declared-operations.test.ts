/**
 * Agents (with the hosted /templates aliases), API keys, app settings, usage and export/import
 * served as declared operations: each has its operationId, and the entries that needed more than
 * a JSON answer (deprecated aliases, a bytes-only export, a key shown once) read as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, KEY, call, closePlatform, makePlatform } from './helpers.js';

const IDS: [string, string, string][] = [
  ['get', '/api/resources', 'listResources'],
  ['get', '/api/agents', 'listAgents'],
  ['get', '/api/templates', 'listTemplates'],
  ['get', '/api/agents/{id}', 'getAgent'],
  ['get', '/api/templates/{id}', 'getTemplate'],
  ['post', '/api/agents', 'createAgent'],
  ['patch', '/api/agents/{id}', 'updateAgent'],
  ['delete', '/api/agents/{id}', 'deleteAgent'],
  ['get', '/api/keys', 'listKeys'],
  ['post', '/api/keys', 'createKey'],
  ['delete', '/api/keys/{id}', 'revokeKey'],
  ['get', '/api/app', 'getApp'],
  ['get', '/api/settings/localhost', 'getLocalhostSettings'],
  ['put', '/api/settings/localhost', 'updateLocalhostSettings'],
  ['put', '/api/settings/gpu', 'updateGpuSettings'],
  ['get', '/api/usage', 'getUsage'],
  ['get', '/api/workspaces/usage', 'getWorkspaceUsage'],
  ['get', '/api/export', 'exportWorkspace'],
  ['post', '/api/import', 'importWorkspace'],
];

describe('agents, keys, app and archive operations', () => {
  const p = makePlatform();
  let doc: any;
  beforeAll(async () => {
    doc = (await call(p, 'GET', '/api/openapi.json', { key: null })).json;
  });
  afterAll(() => closePlatform(p));

  it('documents each operation under its name', () => {
    for (const [method, path, id] of IDS) expect(doc.paths[path]?.[method]?.operationId, `${method} ${path}`).toBe(id);
  });

  it('marks only the /templates paths deprecated, and they answer as their /agents twins', async () => {
    expect(doc.paths['/api/templates'].get.deprecated).toBe(true);
    expect(doc.paths['/api/templates/{id}'].get.deprecated).toBe(true);
    expect(doc.paths['/api/agents'].get.deprecated).toBeUndefined();
    expect((await call(p, 'GET', '/api/templates/1')).json).toEqual((await call(p, 'GET', '/api/agents/1')).json);
    expect((await call(p, 'GET', '/api/templates/999999')).json).toEqual({ message: 'Agent not found' });
  });

  it('documents the export as tar bytes only, the import as multipart with its 413, a new key as shown once', () => {
    const exp = doc.paths['/api/export'].get;
    expect(exp.responses['200']).toEqual({ description: 'The archive', content: { 'application/x-tar': { schema: { type: 'string', format: 'binary' } } } });
    expect(exp.parameters.map((x: any) => `${x.in} ${x.name}`).sort()).toEqual(['header x-workspace-id', 'query include_secrets']);
    expect(exp.parameters.find((x: any) => x.name === 'include_secrets').schema).toEqual({ type: 'string', enum: ['0', '1', 'true', 'false'] });
    const imp = doc.paths['/api/import'].post;
    expect(Object.keys(imp.requestBody.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(imp.responses).sort()).toEqual(['200', '401', '413', '422']);
    expect(doc.paths['/api/keys'].post.responses['201'].description).toBe('Created; `key` is shown only now');
  });

  it('answers the export as a tar, and a wrong include_secrets in its own words', async () => {
    const ok = await p.app.request(`${BASE}/api/export`, { headers: { host: '127.0.0.1:8787', authorization: `Bearer ${KEY}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/x-tar');
    expect(ok.headers.get('content-disposition')).toMatch(/^attachment; filename="agent-desk-export-.+\.tar"$/);
    expect((await ok.arrayBuffer()).byteLength % 512).toBe(0);
    const bad = await call(p, 'GET', '/api/export?include_secrets=maybe');
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({ include_secrets: ['The include secrets field must be 1 or 0.'] });
  });
});
