/**
 * Proxied execution streams: the first streamed token of a remote agent's execution
 * through the local Agent Desk, against the same execution called on the remote directly, in
 * one run (target: ≤ 5 ms added). The remote is a second Agent Desk on its own data dir whose
 * model is the fake OpenAI-compatible server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchPart, Figures } from '../run.js';
import { createPlatform } from '../../src-main/platform/platform.js';
import { listen } from '../../src-main/platform/transports/http/server.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';
import { startFakeOpenAI } from '../../test/fixtures/fake-openai.js';
import { readSSE } from '../../test/fixtures/sse-reader.js';

const REMOTE_KEY = 'bench-remote-key-0123456789';
const LOCAL_KEY = 'bench-local-key-0123456789';
const ROUNDS = 40;

/** Time to the first `running` event with text, and whether the stream completed. */
async function firstToken(url: string, key: string): Promise<{ ms: number; completed: boolean }> {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ stream: true, temperature: '0', model: 'gpt-4o-mini', tools: 'no-tools', messages: [{ role: 'user', content: 'Hi' }] }),
  });
  let ms = -1;
  let completed = false;
  await readSSE(res, (data) => {
    const ev = JSON.parse(data);
    if (ms < 0 && ev.status === 'running' && ev.output) ms = performance.now() - t0;
    if (ev.status === 'completed') completed = true;
  });
  return { ms, completed };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];

export default {
  name: 'remote',
  async run(): Promise<Figures> {
    const fake = await startFakeOpenAI({ reply: 'one two three four five six seven eight', delayMs: 1 });
    const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-remote-')));
    const silent = createLogger('silent');
    const remote = createPlatform({ dataDir: dirs[0], envApiKey: REMOTE_KEY, logger: silent, env: { AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk', AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    const remoteServer = await listen(remote, { port: 0 });
    const local = createPlatform({ dataDir: dirs[1], envApiKey: LOCAL_KEY, logger: silent, env: { AGENT_DESK_REMOTE_URL: remoteServer.url, AGENT_DESK_REMOTE_API_KEY: REMOTE_KEY, AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    const localServer = await listen(local, { port: 0 });
    try {
      await local.services.remote.sync();
      const remoteChat = local.db.prepare("SELECT id, remote_id FROM agents WHERE source = 'remote' AND slug = 'remote-chat'").get() as { id: number; remote_id: number };
      const directUrl = `${remoteServer.url}/api/agents/${remoteChat.remote_id}/execute`;
      const proxiedUrl = `${localServer.url}/api/agents/${remoteChat.id}/execute`;
      for (let i = 0; i < 5; i++) {
        await firstToken(directUrl, REMOTE_KEY);
        await firstToken(proxiedUrl, LOCAL_KEY);
      }
      const direct: number[] = [];
      const proxied: number[] = [];
      let lost = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const d = await firstToken(directUrl, REMOTE_KEY);
        const p = await firstToken(proxiedUrl, LOCAL_KEY);
        direct.push(d.ms);
        proxied.push(p.ms);
        if (!d.completed || !p.completed) lost++;
      }
      return {
        'first token direct, median ms': median(direct),
        'first token proxied, median ms': median(proxied),
        'first token added by proxying, median ms (target ≤ 5)': median(proxied) - median(direct),
        'first token added by proxying, p90 ms': p90(proxied) - p90(direct),
        'streams not completed': lost,
      };
    } finally {
      await localServer.close();
      await remoteServer.close();
      await fake.close();
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    }
  },
} satisfies BenchPart;
