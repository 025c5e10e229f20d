import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPlatform, type Platform } from '../../src-main/platform/platform.js';
import { listen, type RunningServer } from '../../src-main/platform/transports/http/server.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';
import { startFakeOpenAI, type FakeServer } from '../../test/fixtures/fake-openai.js';

export interface DeskOnFake {
  fake: FakeServer;
  platform: Platform;
  /** Agent Desk on real HTTP (listen()), its provider the fake. */
  server: RunningServer;
  close(): Promise<void>;
}

/**
 * A fake OpenAI-compatible provider answering `reply`, and Agent Desk on a fresh data dir with
 * `key` as its API key and the fake as its provider: a door through Agent Desk is timed against
 * the same provider called directly.
 */
export async function startDeskOnFake(name: string, key: string, reply: string): Promise<DeskOnFake> {
  const fake = await startFakeOpenAI({ reply });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `agent-desk-bench-${name}-`));
  const platform = createPlatform({
    dataDir: dir,
    envApiKey: key,
    logger: createLogger('silent'),
    env: { AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OLLAMA_AUTODETECT: '0' },
  });
  const server = await listen(platform, { port: 0 });
  return {
    fake,
    platform,
    server,
    async close() {
      await server.close();
      await fake.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
