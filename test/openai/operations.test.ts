/**
 * The other tools' doors as declared operations: each is served at its base + path, documented
 * there under its name with exactly its declared answers (no /api 422), and answers a missing key
 * and a refused body in the error dialect it declares.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { pathOf, type Operation } from '../../src-main/platform/contract/operation.js';
import { agentOpenAIOperations, openaiOperations } from '../../src-main/platform/contract/openai.js';
import { responsesOperations } from '../../src-main/platform/contract/openai-responses.js';
import { embeddingOperations } from '../../src-main/platform/contract/embeddings.js';
import { anthropicOperations } from '../../src-main/platform/contract/anthropic-messages.js';

const declared: [string, Operation][] = Object.entries({ ...openaiOperations, ...agentOpenAIOperations, ...responsesOperations, ...embeddingOperations, ...anthropicOperations });
const params = { model: 'no-such-model', id: '1', response_id: 'resp_1' };
const urlOf = (op: Operation) => `${op.base ?? '/api'}${pathOf(op, params)}`;

/** Whether a body is an error in the dialect, with the status's type. */
function inDialect(dialect: Operation['dialect'], json: any, status: number): boolean {
  if (dialect === 'anthropic') return json?.type === 'error' && json.error?.type === (status === 401 ? 'authentication_error' : 'invalid_request_error');
  return typeof json?.error?.message === 'string' && json.error.type === 'invalid_request_error' && 'param' in json.error && 'code' in json.error;
}

describe("other tools' doors as declared operations", () => {
  const p = makePlatform();
  let doc: any;
  beforeAll(async () => {
    doc = (await call(p, 'GET', '/api/openapi.json', { key: null })).json;
  });
  afterAll(() => closePlatform(p));

  it('declares every door once, with a dialect', () => {
    expect(declared.map(([, op]) => `${op.method.toUpperCase()} ${op.base ?? '/api'}${op.path}`).sort()).toEqual([
      'GET /api/agents/{id}/openai/models',
      'GET /v1/models',
      'GET /v1/models/{model}',
      'GET /v1/responses/{response_id}',
      'POST /api/agents/{id}/openai/chat/completions',
      'POST /v1/chat/completions',
      'POST /v1/embeddings',
      'POST /v1/messages',
      'POST /v1/messages/count_tokens',
      'POST /v1/responses',
    ]);
    for (const [name, op] of declared) expect(op.dialect, name).toBeDefined();
  });

  it.each(declared)('%s is documented at its base + path with only its declared answers', (name, op) => {
    const entry = doc.paths[`${op.base ?? '/api'}${op.path}`]?.[op.method];
    expect(entry?.operationId).toBe(name);
    expect(Object.keys(entry.responses).sort()).toEqual(['200', ...Object.keys(op.errors ?? {})].sort());
  });

  it.each(declared)('%s answers a missing key in its dialect', async (_name, op) => {
    const r = await call(p, op.method.toUpperCase(), urlOf(op), { key: null, body: op.body ? {} : undefined });
    expect(r.status).toBe(401);
    expect(inDialect(op.dialect, r.json, 401), r.text).toBe(true);
  });

  it.each(declared.filter(([, op]) => op.body))('%s refuses a body without its fields with a 400 in its dialect', async (_name, op) => {
    const r = await call(p, op.method.toUpperCase(), urlOf(op), { body: { stream: 'yes' } });
    expect(r.status).toBe(400);
    expect(inDialect(op.dialect, r.json, 400), r.text).toBe(true);
  });
});
