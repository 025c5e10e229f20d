import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';

/**
 * Each door speaks from its operations: the error dialect is the matched operation's (a 401 from
 * the middleware included) or, for a path no operation serves, its door's; each dialect's model
 * listing is an operation of its own, with its own schema, and no middleware rewrites another's answer.
 */
describe('the /v1 doors', () => {
  let p: ReturnType<typeof makePlatform>;
  const anthropic = { 'anthropic-version': '2023-06-01' };
  beforeAll(() => {
    p = makePlatform({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
  });
  afterAll(() => closePlatform(p));

  it("answers Anthropic's model operations in Anthropic's errors, a 401 included", async () => {
    const anon = await call(p, 'GET', '/v1/models', { headers: anthropic, key: null });
    expect(anon.status).toBe(401);
    expect(anon.json).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const missing = await call(p, 'GET', '/v1/models/no-such-model', { headers: anthropic });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ type: 'error', error: { type: 'not_found_error', message: expect.stringContaining('no-such-model') } });
    // The same paths without the header are OpenAI's operations.
    const openaiAnon = await call(p, 'GET', '/v1/models', { key: null });
    expect(openaiAnon.json).toMatchObject({ error: { code: 'invalid_api_key' } });
    const openaiMissing = await call(p, 'GET', '/v1/models/no-such-model');
    expect(openaiMissing.json).toMatchObject({ error: { code: 'model_not_found', param: 'model' } });
  });

  it("a path no operation serves answers in its door's dialect", async () => {
    const unknown = await call(p, 'GET', '/v1/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: { message: 'Invalid URL (GET /v1/no-such-thing).', type: 'invalid_request_error', param: null, code: null } });
    const wrongMethod = await call(p, 'GET', '/v1/messages');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const under = await call(p, 'POST', '/v1/messages/no-such-thing', { body: {} });
    expect(under.status).toBe(404);
    expect(under.json).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    const agentDoor = await call(p, 'GET', '/api/agents/1/openai/no-such-thing');
    expect(agentDoor.status).toBe(404);
    expect(agentDoor.json.error).toMatchObject({ type: 'invalid_request_error', code: null });
    const api = await call(p, 'GET', '/api/no-such-thing');
    expect(api.status).toBe(404);
    expect(api.json).toEqual({ message: 'Not found.' });
  });

  it("lists models in each dialect's own shape; only OpenAI's names the embedding model", async () => {
    const openai = await call(p, 'GET', '/v1/models');
    expect(openai.status).toBe(200);
    const embedder = openai.json.data.filter((m: { owned_by: string }) => m.owned_by === 'agent-desk-embeddings');
    expect(embedder).toHaveLength(1);
    const list = await call(p, 'GET', '/v1/models', { headers: anthropic });
    expect(list.status).toBe(200);
    expect(Object.keys(list.json).sort()).toEqual(['data', 'first_id', 'has_more', 'last_id']);
    const ids = list.json.data.map((m: { id: string }) => m.id);
    expect(ids).toEqual(openai.json.data.filter((m: { owned_by: string }) => m.owned_by !== 'agent-desk-embeddings').map((m: { id: string }) => m.id));
    expect(list.json.data[0]).toEqual({ type: 'model', id: 'chat', display_name: 'chat', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(list.json).toMatchObject({ has_more: false, first_id: ids[0], last_id: ids.at(-1) });
    const one = await call(p, 'GET', '/v1/models/chat', { headers: anthropic });
    expect(one.json).toEqual(list.json.data[0]);
    const embedding = await call(p, 'GET', `/v1/models/${embedder[0].id}`, { headers: anthropic });
    expect(embedding.status).toBe(404);
  });

  it('documents both listings in the one entry of GET /v1/models, the header named', async () => {
    const doc = (await call(p, 'GET', '/api/openapi.json')).json;
    for (const path of ['/v1/models', '/v1/models/{model}']) {
      const get = doc.paths[path].get;
      expect(get.operationId).toMatch(/^(list|retrieve)OpenAIModel/);
      expect(get.description).toContain('`anthropic-version`');
      expect(get.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'anthropic-version', required: false }));
      const refs = JSON.stringify(get.responses[200].content['application/json'].schema);
      expect(refs).toContain(path === '/v1/models' ? 'AnthropicModelList' : 'AnthropicModel');
      expect(refs).toContain(path === '/v1/models' ? 'OpenAIModelList' : 'OpenAIModel');
    }
    expect(doc.components.schemas.AnthropicModelList.properties).toHaveProperty('has_more');
  });
});
