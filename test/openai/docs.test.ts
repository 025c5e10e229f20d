import { afterAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';

describe('docs for other tools', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));

  it('/api/docs shows how to connect the openai SDK, curl and MCP clients', async () => {
    const r = await call(p, 'GET', '/api/docs', { key: null });
    expect(r.status).toBe(200);
    expect(r.text).toContain('Connect other tools');
    expect(r.text).toContain("from 'openai'");
    expect(r.text).toContain('/v1/chat/completions');
    expect(r.text).toContain('"mcpServers"');
    expect(r.text).toContain('/mcp');
    expect(r.text).toContain('"run", "-s"');
  });

  it('the OpenAPI document describes the OpenAI-compatible routes with their error shape', async () => {
    const doc = (await call(p, 'GET', '/api/openapi.json', { key: null })).json;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/models', '/v1/models/{model}', '/v1/chat/completions', '/api/agents/{id}/openai/chat/completions']));
    const op = doc.paths['/v1/chat/completions'].post;
    expect(op.responses['401'].content['application/json'].schema.$ref).toBe('#/components/schemas/OpenAIError');
    expect(doc.components.schemas.ChatCompletionRequest.properties.messages.type).toBe('array');
  });
});
