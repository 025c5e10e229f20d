import { afterAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from './helpers.js';
import { importTar } from '../crash/data-safety-helpers.js';
import { tarEnd, tarEntry } from '../../src-main/platform/modules/archive/tar.js';

/**
 * Every refusal says what was actually wrong with what the client sent: a value of the wrong type
 * is named as such (not measured as if it were right), a field that is missing is named as
 * missing, and a value is never shown as if it were the one expected.
 */
describe('refusals say what was wrong', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));

  it('a string where a list goes is one sentence about the type, not about its length', async () => {
    const agent = (await call(p, 'POST', '/api/agents', { body: { title: 'Sentences' } })).json;
    const r = await call(p, 'POST', `/api/agents/${agent.id}/webhooks`, { body: { url: 'http://127.0.0.1:9/h', events: 'execution.failed' } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual({ message: 'The events field must be an array.', errors: { events: ['The events field must be an array.'] } });
    // Longer than the list's limit of 20 names: zod also measures the string against it; only the type is said.
    const long = await call(p, 'POST', `/api/agents/${agent.id}/webhooks`, { body: { url: 'http://127.0.0.1:9/h', events: 'execution.succeeded, execution.failed' } });
    expect(long.status).toBe(422);
    expect(long.json).toEqual({ message: 'The events field must be an array.', errors: { events: ['The events field must be an array.'] } });
  });

  it('a manifest whose version is the text "1" is told so, not "version 1; reads version 1"', async () => {
    const manifest = (version: unknown) =>
      Buffer.concat([tarEntry('manifest.json', Buffer.from(JSON.stringify({ format: 'agent-desk-export', version }))), tarEnd()]);
    const text = await importTar(p, manifest('1'));
    expect(text.status, text.text).toBe(422);
    expect(text.json.message).toBe('The archive\'s manifest.json gives its version as the text "1", not a number; this Agent Desk reads version 1.');
    const none = await importTar(p, manifest(undefined));
    expect(none.json.message).toBe("The archive's manifest.json has no version; this Agent Desk reads version 1.");
    const later = await importTar(p, manifest(2));
    expect(later.json.message).toBe('This export has format version 2; this Agent Desk reads version 1.');
  });

  it('/v1/chat/completions: a function tool without its function object names the missing object', async () => {
    const r = await call(p, 'POST', '/v1/chat/completions', { body: { model: 'x', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function' }] } });
    expect(r.status, r.text).toBe(400);
    expect(r.json.error.param).toBe('tools[0].function');
    expect(r.json.error.message).not.toMatch(/got `function`/);
    expect(r.json.error.message).toMatch(/needs its `function` object/);
    const other = await call(p, 'POST', '/v1/chat/completions', { body: { model: 'x', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'retrieval' }] } });
    expect(other.json.error.message).toBe('Only tools of type `function` are supported (got `retrieval`).');
    const choice = await call(p, 'POST', '/v1/chat/completions', {
      body: { model: 'x', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: { type: 'function' } },
    });
    expect(choice.status, choice.text).toBe(400);
    expect(choice.json.error.message).not.toMatch(/undefined/);
  });

  it('/v1/responses: an input_text part whose text is not a string names the text, not the type', async () => {
    const r = await call(p, 'POST', '/v1/responses', { body: { model: 'x', input: [{ role: 'user', content: [{ type: 'input_text', text: 5 }] }] } });
    expect(r.status, r.text).toBe(400);
    expect(r.json.error.param).toBe('input[0].content[0].text');
    expect(r.json.error.message).toBe('A `input_text` part needs its `text` as a string (got the number 5).');
    const noType = await call(p, 'POST', '/v1/responses', { body: { model: 'x', input: [{ role: 'user', content: [{ text: 'hi' }] }] } });
    expect(noType.json.error.message).toMatch(/^Content parts of type none are not supported/);
  });

  it('/v1/messages: a text block whose text is not a string, and a tool choice without a name', async () => {
    const headers = { 'anthropic-version': '2023-06-01' };
    const r = await call(p, 'POST', '/v1/messages', { headers, body: { model: 'x', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: ['hi'] }] }] } });
    expect(r.status, r.text).toBe(400);
    expect(r.json.error.message).toMatch(/A text block needs its `text` as a string \(got a list\)\.$/);
    const choice = await call(p, 'POST', '/v1/messages', {
      headers,
      body: { model: 'x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'f', input_schema: { type: 'object' } }], tool_choice: { type: 'tool' } },
    });
    expect(choice.status, choice.text).toBe(400);
    expect(choice.json.error.message).not.toMatch(/undefined/);
  });
});
