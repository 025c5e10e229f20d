/**
 * A provider kind that is a server (OpenAI-compatible, Ollama) cannot be saved or tested without
 * its address: 422 naming the field (an empty one used to point at api.openai.com silently).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';

const open: ReturnType<typeof makePlatform>[] = [];
afterEach(async () => {
  for (const p of open.splice(0)) await closePlatform(p);
});

function platform() {
  const p = makePlatform({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
  open.push(p);
  return p;
}

describe('a provider that is a server needs its address', () => {
  it('PUT, Test and first-run setup refuse an empty base URL with 422 naming the field; Anthropic keeps its default address', async () => {
    const p = platform();
    for (const base_url of [undefined, null, '']) {
      const put = await call(p, 'PUT', '/api/settings/providers', { body: { providers: [{ id: 'anthropic', kind: 'anthropic', api_key: 'sk-ant' }, { id: 'lm', kind: 'openai-compatible', label: 'LM', ...(base_url === undefined ? {} : { base_url }) }] } });
      expect(put.status, String(base_url)).toBe(422);
      expect(Object.keys(put.json.errors), String(base_url)).toEqual(['providers.1.base_url']);
      // An empty string is not a URL to the schema; left out or null, the rule of the kind answers.
      expect(put.json.message).toMatch(base_url === '' ? /base url field must be a valid URL/ : /base url field is required for the OpenAI-compatible provider "lm"/);
    }
    // Nothing was saved by the refused requests.
    expect((await call(p, 'GET', '/api/settings/providers')).json.providers).toEqual([]);

    const ollama = await call(p, 'PUT', '/api/settings/providers', { body: { providers: [{ id: 'ol', kind: 'ollama' }] } });
    expect(ollama.status).toBe(422);
    expect(ollama.json.errors['providers.0.base_url'][0]).toMatch(/Ollama/);

    const test = await call(p, 'POST', '/api/settings/providers/test', { body: { provider: { id: 'lm', kind: 'openai-compatible', base_url: null } } });
    expect(test.status).toBe(422);
    expect(Object.keys(test.json.errors)).toEqual(['provider.base_url']);

    const setup = await call(p, 'POST', '/api/models/setup', { body: { kind: 'openai-compatible', base_url: '' } });
    expect(setup.status).toBe(422);
    expect(Object.keys(setup.json.errors)).toEqual(['base_url']);

    // Anthropic's address has one right answer: it may be left out.
    const anthropic = await call(p, 'PUT', '/api/settings/providers', { body: { providers: [{ id: 'anthropic', kind: 'anthropic', api_key: 'sk-ant' }] } });
    expect(anthropic.status).toBe(200);
    expect(anthropic.json.providers[0]).toMatchObject({ id: 'anthropic', base_url: null, has_api_key: true });
  });
});
