/**
 * Client input never yields a 500: malformed % escapes in URLs, and JSON nested deep enough to
 * overflow the stack of whatever serializes it again (one depth limit in the JSON body middleware).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import type { Platform } from '../../src-main/platform/platform.js';
import { MAX_JSON_DEPTH } from '../../src-main/platform/transports/http/middleware/json-depth.js';

let p: Platform & { dir: string };
beforeAll(() => {
  p = makePlatform({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
});
afterAll(() => closePlatform(p));

const nested = (depth: number, leaf: unknown = 1): unknown => {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? { k: v } : [v];
  return v;
};
/** The body as text: JSON.stringify itself cannot write 100,000 levels. */
const deepText = (depth: number) => '['.repeat(depth) + '1' + ']'.repeat(depth);

describe('client input is never a 500', () => {
  it('a malformed % in a download URL is a 422', async () => {
    const bad = ['http://127.0.0.1:9/org/repo/resolve/main/model%zz.gguf', 'https://huggingface.co/o/r/resolve/main/%E0%A4%A.gguf', 'https://example.com/%.gguf', 'https://example.com/a%2.gguf'];
    for (const url of bad) {
      const r = await call(p, 'POST', '/api/models/downloads', { body: { url } });
      expect(r.status, url).toBe(422);
      expect(r.json.errors.url[0], url).toMatch(/malformed % escape/);
    }
    expect((await call(p, 'GET', '/api/models/downloads')).json).toEqual([]);
  });

  it('malformed % escapes in paths and queries are answered without a 500', async () => {
    const urls = ['/api/agents?q=%zz', '/api/agents/%E0%A4%A', '/api/files/%', '/api/memories?q=%ff%', '/api/agent-responses/%zz', '/api/mcp-servers/%c0', '/v1/models?x=%', '/api/resources?type=%E0'];
    for (const url of urls) {
      const r = await call(p, 'GET', url);
      expect(r.status, url).toBeLessThan(500);
      expect(r.json, url).toBeTypeOf('object');
    }
  });

  it('deep answers are a 4xx, naming the field', async () => {
    const raw = `{"agent_id":1,"every_minutes":60,"answers":{"a":${deepText(100_000)}}}`;
    const r = await call(p, 'POST', '/api/schedules', { raw, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(422);
    expect(r.json.errors.answers[0]).toMatch(/nested too deeply/);
    expect((await call(p, 'GET', '/api/schedules')).json.data).toEqual([]);
  });

  it('every route gets the same depth limit, in its own error dialect', async () => {
    const deep = deepText(100_000);
    // Each through a field its schema lets through unchecked (unknown answers, loose objects).
    const attacks: [string, string, string][] = [
      ['POST', '/api/agents/1/execute', `{"messages":[{"role":"user","content":"hi"}],"answers":{"extra":${deep}}}`],
      ['POST', '/api/agents/1/execute', `{"messages":[{"role":"user","content":"hi"}],"extra":${deep}}`],
      ['POST', '/api/mcp-servers/import', `{"mcpServers":{"deep":{"command":"x","extra":${deep}}}}`],
      ['POST', '/api/schedules', `{"agent_id":1,"cron":"0 9 * * *","answers":{"a":${deep}}}`],
      ['POST', '/api/schedules', deep],
      ['POST', '/api/memories', `{"memory":"m","extra":${deep}}`],
      ['POST', '/v1/chat/completions', `{"model":"x","messages":[{"role":"user","content":"hi"}],"tool_choice":${deep}}`],
      ['POST', '/v1/chat/completions', `{"model":"x","messages":[{"role":"user","content":"hi","extra":${deep}}]}`],
      ['POST', '/v1/chat/completions', `{"model":"x","messages":[{"role":"user","content":"hi"}],"answers":{"a":${deep}}}`],
    ];
    for (const [method, url, raw] of attacks) {
      const r = await call(p, method, url, { raw, headers: { 'content-type': 'application/json' } });
      expect(r.status, `${method} ${url}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${method} ${url}`).toBeLessThan(500);
      expect(r.text, `${method} ${url}`).toMatch(/nested too deeply/);
    }
    // An OpenAI client reads its own error shape.
    const v1 = await call(p, 'POST', '/v1/chat/completions', { raw: attacks[6][2], headers: { 'content-type': 'application/json' } });
    expect(v1.json.error.message).toMatch(/nested too deeply/);
  });

  it('the limit sits where it says: as deep as allowed passes the check, one more does not', async () => {
    const at = (d: number) => call(p, 'POST', '/api/schedules', { body: { agent_id: 1, every_minutes: 60, answers: { a: nested(d - 2) } } });
    // answers (1) + a's value: MAX_JSON_DEPTH levels in all is within the limit.
    const ok = await at(MAX_JSON_DEPTH);
    expect(ok.status).toBe(201);
    const over = await at(MAX_JSON_DEPTH + 1);
    expect(over.status).toBe(422);
    expect(over.json.errors).toHaveProperty('answers');
    // Brackets inside strings are text, not nesting.
    const text = await call(p, 'POST', '/api/memories', { body: { memory: '['.repeat(10_000) + '{"'.repeat(1000) } });
    expect(text.status).toBe(200);
  });
});
