import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
import { createPlatform } from '../src-main/platform/platform.js';
import { createLogger } from '../src-main/platform/log.js';
import { startFakeOpenAI } from '../test/fixtures/fake-openai.js';
const fake = await startFakeOpenAI({ reply: 'a b c d e f' });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prof-'));
const p = createPlatform({ dataDir: dir, envApiKey: 'k', logger: createLogger('silent'), env: { AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
for (let i = 0; i < 15; i++) {
  const t0 = performance.now();
  const { events } = await p.services.executions.start({ userId: 1, via: 'key' }, 1, { messages: [{ role: 'user', content: 'hi' }] }, { steeringOptional: true, overrides: { model: 'gpt-4o-mini' } });
  const t1 = performance.now();
  const times: string[] = [];
  for await (const e of events) times.push(`${e.status}${e.output ? '+' : ''}@${(performance.now() - t0).toFixed(1)}`);
  const fr = fake.requests.at(-1);
  console.log('start', (t1 - t0).toFixed(1), times.join(' '));
}
await p.close(); await fake.close(); fs.rmSync(dir, { recursive: true, force: true });
