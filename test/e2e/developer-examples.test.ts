/**
 * The Developer screen's curl examples work as pasted: each is read from the screen in Chromium,
 * run by bash with curl against `serve` (a key made in the app, the fake provider behind it), and
 * must answer 2xx with the expected shape.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { openScreen, pageFetch } from './support/page';
import { limit } from '../fixtures/until.js';

const run = promisify(execFile);
let env: ChatEnv;

describe('Developer screen examples', () => {
  let key = '';
  let dir = '';
  const it = e2eSetup(async (own) => {
    env = own(await startChatEnv({ reply: 'Hello from the fake model.', delayMs: 1 }));
    const made = await pageFetch(env.page, 'POST', '/api/keys', { name: 'curl examples' });
    expect(made.status).toBe(201);
    key = made.json.key;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-curl-'));
    own({ close: async () => fs.rmSync(dir, { recursive: true, force: true }) });
  });

  it('every example answers 2xx when pasted into a shell', async () => {
    const { page } = env;
    await openScreen(page, 'Developer', 'Developer');
    const blocks = await page.locator('pre.block').allInnerTexts();
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    let responseId = '';
    const results: string[] = [];
    for (const code of blocks) {
      const script = code.replace('RESPONSE_ID', responseId);
      // -s: quiet; -w: the status on a last line, so each answer's code is checked.
      const withStatus = script.replace(/^curl /gm, 'curl -s -w "\\nHTTP %{http_code}\\n" ');
      // Async: the fake model server lives in this process and must keep answering meanwhile.
      const { stdout: out } = await run('bash', ['-c', withStatus], { cwd: dir, env: { ...process.env, AGENT_DESK_KEY: key }, encoding: 'utf8', timeout: limit(60_000) });
      const status = Number(/HTTP (\d+)\s*$/.exec(out)?.[1]);
      results.push(`${status} ${code.split('\n')[0].slice(0, 60)}`);
      expect(status, `${code}\n→ ${out.slice(0, 500)}`).toBeGreaterThanOrEqual(200);
      expect(status, `${code}\n→ ${out.slice(0, 500)}`).toBeLessThan(300);
      if (code.includes('wait_execution')) {
        const body = JSON.parse(out.replace(/HTTP \d+\s*$/, ''));
        expect(body.responses[0].output).toBe('Hello from the fake model.');
        responseId = String(body.responses[0].id);
      }
      if (code.includes('"stream": true')) expect(out).toContain('"status":"completed"');
    }
    expect(responseId).not.toBe('');
    expect(results.length).toBe(blocks.length);
  }, limit(120_000));
});
