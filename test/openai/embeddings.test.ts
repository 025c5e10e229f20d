/**
 * `POST /v1/embeddings` through the `openai` SDK, over real HTTP on loopback: the built-in
 * embedder by default (its vectors are compared with the same embedder called in-process), float
 * and base64 (little-endian float32), usage in o200k tokens, token arrays refused in OpenAI's
 * error shape, and the embedder's model in /v1/models. Then an OpenAI-compatible embedder (the
 * fake provider) chosen in the retrieval settings serves the same path under its own model id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { KEY, http, startServer, type TestServer } from './server.js';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';
import { hashVectors } from '../retrieval/helpers.js';
import { normalize } from '../../src-main/platform/ingest/embed/types.js';
import { limit } from '../fixtures/until.js';

const decode = (b64: string): number[] => {
  const buf = Buffer.from(b64, 'base64');
  return Array.from({ length: buf.length / 4 }, (_, i) => buf.readFloatLE(i * 4));
};

describe('/v1/embeddings', () => {
  let s: TestServer;
  let fake: FakeServer;
  let client: OpenAI;
  const inProcess = (texts: string[]) => s.p.services.retrieval.current().embedder.embed(texts);

  beforeAll(async () => {
    fake = await startFakeOpenAI({ embed: (input) => hashVectors(input, 8) });
    s = await startServer({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: KEY, maxRetries: 0 });
  }, limit(60_000));
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  it('lists the built-in embedding model in /v1/models and retrieves it', async () => {
    const models = await client.models.list();
    const ids = models.data.map((m) => m.id);
    expect(ids).toContain('use-lite-512');
    expect(ids.filter((id) => id === 'use-lite-512')).toHaveLength(1);
    expect(models.data.find((m) => m.id === 'use-lite-512')?.owned_by).toBe('agent-desk-embeddings');
    const one = await client.models.retrieve('use-lite-512');
    expect(one).toMatchObject({ id: 'use-lite-512', object: 'model' });
    expect((await http(s, 'GET', '/v1/models/not-a-model')).status).toBe(404);
    // An Anthropic client's list keeps its own shape and has no embedding model (its API has no embeddings).
    const anthropic = await fetch(`${s.url}/v1/models`, { headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' } }).then((r) => r.json());
    expect(anthropic.data.every((m: any) => m.type === 'model' && m.object === undefined)).toBe(true);
    expect(anthropic.data.map((m: any) => m.id)).not.toContain('use-lite-512');
  });

  it('embeds a string as floats equal to the embedder called in-process, with usage', async () => {
    const text = 'The cat sat on the mat.';
    const r = await client.embeddings.create({ model: 'use-lite-512', input: text, encoding_format: 'float' });
    expect(r.object).toBe('list');
    expect(r.model).toBe('use-lite-512');
    expect(r.data).toHaveLength(1);
    expect(r.data[0]).toMatchObject({ object: 'embedding', index: 0 });
    expect(r.data[0].embedding).toHaveLength(512);
    const [local] = await inProcess([text]);
    expect(r.data[0].embedding).toEqual(Array.from(local));
    // o200k: "The", " cat", " sat", " on", " the", " mat", "." = 7 tokens.
    expect(r.usage).toEqual({ prompt_tokens: 7, total_tokens: 7 });
  });

  it('answers base64 as little-endian float32 (the SDK default decodes it; an explicit request gets the string)', async () => {
    const texts = ['Harbour cranes lift containers.', 'Bees like lavender.', 'hello world'];
    const local = await inProcess(texts);
    // No encoding_format: the SDK asks for base64 and decodes it into numbers itself.
    const sdk = await client.embeddings.create({ model: 'use-lite-512', input: texts });
    expect(sdk.data.map((d) => d.index)).toEqual([0, 1, 2]);
    sdk.data.forEach((d, i) => expect(d.embedding).toEqual(Array.from(local[i])));
    const raw = await client.embeddings.create({ model: 'use-lite-512', input: texts, encoding_format: 'base64' });
    raw.data.forEach((d, i) => {
      expect(typeof d.embedding).toBe('string');
      expect(decode(d.embedding as unknown as string)).toEqual(Array.from(local[i]));
    });
    // "Harbour cranes lift containers." 6 + "Bees like lavender." 5 + "hello world" 2.
    expect(raw.usage).toEqual({ prompt_tokens: 13, total_tokens: 13 });
  });

  it("refuses token arrays, empty input, other models and bad parameters in OpenAI's error shape", async () => {
    const bad = async (body: unknown, status: number, param: string | null, code?: string) => {
      const r = await http(s, 'POST', '/v1/embeddings', body);
      expect(r.status, r.text).toBe(status);
      expect(Object.keys(r.json)).toEqual(['error']);
      expect(r.json.error).toMatchObject({ type: 'invalid_request_error', param });
      expect(typeof r.json.error.message).toBe('string');
      if (code) expect(r.json.error.code).toBe(code);
      return r.json.error;
    };
    expect((await bad({ model: 'use-lite-512', input: [1, 2, 3] }, 400, 'input', 'unsupported_value')).message).toMatch(/Token arrays are not supported/);
    await bad({ model: 'use-lite-512', input: [[1, 2], [3]] }, 400, 'input', 'unsupported_value');
    await bad({ model: 'use-lite-512', input: '' }, 400, 'input');
    await bad({ model: 'use-lite-512', input: [] }, 400, 'input');
    await bad({ model: 'use-lite-512', input: ['fine', ''] }, 400, 'input');
    await bad({ model: 'use-lite-512', input: { text: 'x' } }, 400, 'input');
    await bad({ model: 'use-lite-512' }, 400, 'input');
    await bad({ model: 'use-lite-512', input: 'x', encoding_format: 'int8' }, 400, 'encoding_format');
    await bad({ model: 'use-lite-512', input: 'x', dimensions: 256 }, 400, 'dimensions', 'unsupported_value');
    await bad({ model: 'text-embedding-3-small', input: 'x' }, 404, 'model', 'model_not_found');
    const sdkError = await client.embeddings.create({ model: 'use-lite-512', input: [1, 2, 3] }).catch((e: unknown) => e);
    expect(sdkError).toBeInstanceOf(OpenAI.BadRequestError);
    expect((await http(s, 'POST', '/v1/embeddings', { model: 'use-lite-512', input: 'x' }, null)).status).toBe(401);
  });

  it('serves the embedder chosen in Settings (an OpenAI-compatible server) under its model id', async () => {
    const put = await http(s, 'PUT', '/api/settings/embeddings', { provider: 'openai', model: 'fake-embed-8', base_url: fake.url, api_key: 'sk-fake' });
    expect(put.status, put.text).toBe(200);
    const ids = (await client.models.list()).data.map((m) => m.id);
    expect(ids).toContain('fake-embed-8');
    expect(ids).not.toContain('use-lite-512');
    const r = await client.embeddings.create({ model: 'fake-embed-8', input: ['crane lifts', 'bees'], encoding_format: 'float' });
    const expected = hashVectors(['crane lifts', 'bees'], 8).map((v) => Array.from(normalize(v)));
    expect(r.data.map((d) => d.embedding)).toEqual(expected);
    const sent = fake.requests.filter((q) => q.path === '/v1/embeddings').at(-1);
    expect(sent?.body).toMatchObject({ model: 'fake-embed-8', input: ['crane lifts', 'bees'] });
    expect((await http(s, 'POST', '/v1/embeddings', { model: 'use-lite-512', input: 'x' })).status).toBe(404);
    // The embedding server down: a 502 in OpenAI's shape, not a 500.
    fake.set({ embed: undefined });
    const down = await http(s, 'POST', '/v1/embeddings', { model: 'fake-embed-8', input: 'x' });
    expect(down.status).toBe(502);
    expect(down.json.error).toMatchObject({ type: 'server_error', code: 'embedder_failed' });
  });
});
