import { call, makePlatform } from '../api/helpers.js';
import { limit } from '../fixtures/until.js';
import { parseSse } from '../fixtures/sse-framing.js';
import type { Platform, PlatformOptions } from '../../src-main/platform/platform.js';
import type { ExecutionsStore } from '../../src-main/platform/modules/executions/store.js';
import { nowMicros } from '../../src-main/platform/kernel/time.js';
import { startFakeOpenAI, type FakeOpenAIOptions, type FakeServer } from '../fixtures/fake-openai.js';

export { call };

/** The seeded chat agent (spec questions). */
export const CHAT = 1;

export const chatBody = (content: string, extra: Record<string, unknown> = {}) => ({
  temperature: '0.5',
  model: 'gpt-4o-mini',
  tools: 'no-tools',
  messages: [{ role: 'user', content }],
  ...extra,
});

/** A platform whose `openai` provider is the fake (env-seeded, as headless users configure it). */
export async function withFake(fakeOpts: FakeOpenAIOptions = {}, env: Record<string, string> = {}, opts: PlatformOptions = {}): Promise<{ p: Platform & { dir: string }; fake: FakeServer; close(): Promise<void> }> {
  const fake = await startFakeOpenAI(fakeOpts);
  const p = makePlatform({
    env: { AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_OLLAMA_AUTODETECT: '0', ...env },
    ...opts,
  });
  return {
    p,
    fake,
    async close() {
      await p.close();
      await fake.close();
      const fs = await import('node:fs');
      fs.rmSync(p.dir, { recursive: true, force: true });
    },
  };
}

/** An SSE body's events, parsed; asserts the framing (one data line, then a blank line). */
export function parseSSE(text: string): any[] {
  return parseSse(text, { framing: 'data' }).map((e) => JSON.parse(e.data));
}

export async function poll(p: Platform, id: number, until: (e: any) => boolean, timeoutMs = 10_000): Promise<any> {
  const t0 = Date.now();
  const bound = limit(timeoutMs); // a safety net, scaled on a loaded machine
  for (;;) {
    const r = await call(p, 'GET', `/api/agent-responses/${id}`);
    if (until(r.json)) return r.json;
    if (Date.now() - t0 > bound) throw new Error(`timed out waiting; last: ${JSON.stringify(r.json)}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

/** A running execution of the seeded chat agent written straight through the store (no run behind it); its id. */
export function insertExecution(p: Platform, store: ExecutionsStore, input = 'q', now = nowMicros()): number {
  const agentId = (p.db.prepare(`SELECT id FROM agents WHERE slug = 'chat'`).get() as { id: number }).id;
  const userId = (p.db.prepare('SELECT id FROM users LIMIT 1').get() as { id: number }).id;
  return store.insert({ agentId, userId, rootId: null, parentId: null, input, credits: 1, model: 'm', answers: '{}', turns: '[]', fileIds: '[]', now }).id;
}
