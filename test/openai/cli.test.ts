import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { tempDir } from '../api/helpers.js';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';

const KEY = 'cli-test-key-0123456789';

/** The headless server as a user starts it (`npm run serve`), configured by env only. */
describe('npm run serve: the OpenAI-compatible API of a headless server', () => {
  const dir = tempDir('agent-desk-openai-cli-');
  let fake: FakeServer;
  let child: ChildProcess;
  let url = '';
  beforeAll(async () => {
    fake = await startFakeOpenAI({ reply: 'Served headless.' });
    // One node process (tsx as a loader), so SIGTERM reaches the server itself and nothing outlives the test.
    child = spawn(process.execPath, ['--import', 'tsx', 'src-main/platform/cli/main.ts', 'serve', '--port', '0', '--data-dir', dir], {
      cwd: process.cwd(),
      env: { ...process.env, AGENT_DESK_API_KEY: KEY, AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OLLAMA_AUTODETECT: '0', AGENT_DESK_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 45_000);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
  }, 60_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
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
