import fs from 'node:fs';
import { KEY, makePlatform } from '../api/helpers.js';
import { listen, type RunningServer } from '../../src-main/platform/transports/http/server.js';
import type { Platform, PlatformOptions } from '../../src-main/platform/platform.js';
import { startFakeOpenAI, type FakeOpenAIOptions, type FakeServer } from '../fixtures/fake-openai.js';

export { KEY };

export interface TestServer {
  p: Platform & { dir: string };
  url: string;
  running: RunningServer;
  close(): Promise<void>;
}

/** A platform on a temp data dir, served over real HTTP on 127.0.0.1 with a free port. */
export async function startServer(opts: PlatformOptions = {}): Promise<TestServer> {
  const p = makePlatform(opts);
  const running = await listen(p, { host: '127.0.0.1', port: 0 });
  return {
    p,
    url: running.url,
    running,
    async close() {
      await running.close();
      fs.rmSync(p.dir, { recursive: true, force: true });
    },
  };
}

/** Calls the running server with the test key (or another, or none). */
export async function http(s: TestServer, method: string, path: string, body?: unknown, key: string | null = KEY) {
  const headers: Record<string, string> = {};
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${s.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, headers: res.headers, json, text };
}

/** The platform over HTTP with the fake OpenAI-compatible provider configured as `openai` (env, as headless users do). */
export async function startWithFake(fakeOpts: FakeOpenAIOptions = {}): Promise<TestServer & { fake: FakeServer }> {
  const fake = await startFakeOpenAI(fakeOpts);
  const s = await startServer({ env: { AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
  return {
    ...s,
    fake,
    async close() {
      await s.close();
      await fake.close();
    },
  };
}

/** The system text the provider was given in its last chat request. */
export function lastSystemPrompt(fake: FakeServer): string {
  const msgs = fake.prompts().at(-1) ?? [];
  return msgs.filter((m: any) => m.role === 'system').map((m: any) => m.content).join('\n');
}
