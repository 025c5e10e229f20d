/**
 * The two multipart operations served as declared operations: the document lists each body (the
 * agent-file link's JSON alternative beside its multipart) and the route reads its path itself.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makePlatform } from '../api/helpers.js';
import { upload } from './helpers.js';

describe('upload operations', () => {
  const p = makePlatform();
  let doc: any;
  beforeAll(async () => {
    doc = (await call(p, 'GET', '/api/openapi.json', { key: null })).json;
  });
  afterAll(async () => {
    await p.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
  });

  it('documents Upload File as a streamed multipart body with its workspace header and 413', () => {
    const op = doc.paths['/api/files'].post;
    expect(op.operationId).toBe('uploadFile');
    expect(Object.keys(op.requestBody.content)).toEqual(['multipart/form-data']);
    expect(op.requestBody.required).toBe(true);
    expect(op.parameters.map((x: any) => `${x.in} ${x.name}`)).toEqual(['header x-workspace-id']);
    expect(Object.keys(op.responses).sort()).toEqual(['200', '401', '413', '422']);
  });

  it('documents the agent-file link with its JSON body beside the multipart one, 404 and 413', () => {
    const op = doc.paths['/api/agents/{agentId}/files'].post;
    expect(op.operationId).toBe('linkAgentFiles');
    expect(Object.keys(op.requestBody.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(op.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AgentFilesLink' });
    expect(op.requestBody.content['multipart/form-data'].schema).toEqual({ $ref: '#/components/schemas/FileUpload' });
    expect(op.parameters.map((x: any) => `${x.in} ${x.name} ${x.required}`)).toEqual(['path agentId true']);
    expect(Object.keys(op.responses).sort()).toEqual(['200', '401', '404', '413', '422']);
  });

  it('reads the agent from the path: an unknown one is 404 for a multipart file and before a bad JSON body', async () => {
    const multipart = await upload(p, 'a.txt', 'x', { url: '/api/agents/9999/files' });
    expect(multipart.status).toBe(404);
    expect(multipart.json).toEqual({ message: 'Agent not found' });
    const badBody = await call(p, 'POST', '/api/agents/9999/files', { body: { file_ids: 'x' } });
    expect(badBody.status).toBe(404);
    const known = await call(p, 'POST', '/api/agents/1/files', { body: { file_id: 'x' } });
    expect(known.status).toBe(422);
    expect(Object.keys(known.json.errors)).toEqual(['file_ids.0']);
  });
});
