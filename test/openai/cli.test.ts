import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { tempDir } from '../api/helpers.js';
import { startServer, type ServerProcess } from '../api/server-process.js';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';
import { limit } from '../fixtures/until.js';

const KEY = 'cli-test-key-0123456789';

/** The headless server as a user starts it (`npm run serve`), configured by env only. */
describe('npm run serve: the OpenAI-compatible API of a headless server', () => {
  const dir = tempDir('agent-desk-openai-cli-');
  let fake: FakeServer;
  let server: ServerProcess | undefined;
  let url = '';
  beforeAll(async () => {
    fake = await startFakeOpenAI({ reply: 'Served headless.' });
    // One node process (tsx as a loader), so SIGTERM reaches the server itself and nothing outlives the test.
    server = await startServer({ dataDir: dir, env: { AGENT_DESK_API_KEY: KEY, AGENT_DESK_OPENAI_BASE_URL: fake.url } });
    url = server.url;
  }, limit(60_000));
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers the openai SDK, streaming and not', async () => {
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: KEY, maxRetries: 0 });
    const res = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    expect(res.choices[0].message.content).toBe('Served headless.');
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }], stream: true });
    let text = '';
    for await (const c of stream) text += c.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Served headless.');
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(expect.arrayContaining(['chat', 'gpt-4o-mini', 'gpt-5']));
  });
});
