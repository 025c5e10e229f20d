/**
 * A provider whose stream carries an event that is not JSON has failed: both stream readers (the
 * OpenAI-compatible one and Anthropic's) say so in the provider's name, through one parser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecordingServer, type RecordingServer } from '../fixtures/fake-http.js';
import { OpenAICompatibleProvider } from '../../src-main/platform/engine/providers/openai-compatible.js';
import { AnthropicProvider } from '../../src-main/platform/engine/providers/anthropic.js';
import { ProviderError, type ModelProvider } from '../../src-main/platform/engine/providers/types.js';

let fake: RecordingServer;
beforeAll(async () => {
  fake = await startRecordingServer(({ res }) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end('data: {"half an object\n\n');
  });
});
afterAll(() => fake.close());

async function failureOf(p: ModelProvider): Promise<unknown> {
  try {
    for await (const ev of p.stream({ model: 'm', messages: [{ role: 'user', content: 'hi' }], signal: new AbortController().signal })) void ev;
  } catch (err) {
    return err;
  }
  return null;
}

describe('a stream event that is not JSON', () => {
  it('ends an OpenAI-compatible stream with the provider named', async () => {
    const err = await failureOf(new OpenAICompatibleProvider({ id: 'x', baseUrl: `${fake.origin}/v1`, label: 'The test server' }));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ message: 'The test server sent a malformed stream event.', code: 'provider_error' });
  });

  it('ends an Anthropic stream with the provider named', async () => {
    const err = await failureOf(new AnthropicProvider({ apiKey: 'k', baseUrl: fake.origin }));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ message: 'Anthropic sent a malformed stream event.', code: 'provider_error' });
  });
});
