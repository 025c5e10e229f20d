/**
 * The honest states of a running answer, in Chromium against `serve`, with the page's clock under
 * the test's control (Playwright's clock) and a fake provider that writes each token only when the
 * test lets it: a tool call waiting for approval counts down to its automatic deny (the deadline
 * the platform gives); a stalled model shows the time since its last text, counting; Stop reads a
 * neutral "Stopped" with the text kept. The approval comes first: the stall moves the page's clock
 * ahead of the platform's. Screenshots of each at 1280 and 1024 wide, light and dark.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseGptModel, lastTurnDone, sendMessage, startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { pageFetch } from './support/page';
import { shotSizesAndThemes } from './support/shots';
import { tokenGate, TOKENS, upTo } from '../fixtures/token-gate';
import { FILESYSTEM, lastToolResult } from '../tools/helpers';
import { limit } from '../fixtures/until.js';

let env: ChatEnv;
const gate = tokenGate();
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-e2e-states-'));
const note = path.join(folder, 'notes.txt');
fs.writeFileSync(note, 'Meeting moved to Thursday 10:00.');

const lastTurn = () => env.page.locator('[data-testid="turn"]').last();
const answerText = async () => (await lastTurn().getByTestId('answer').locator('.md').innerText()).trim();
const status = () => lastTurn().getByTestId('turn-status').innerText();
/** The page's clock now (it runs apart from the test's once installed). */
const pageNow = () => env.page.evaluate(() => Date.now());

async function sendHeld(page: Page, text: string, n: number) {
  gate.reset();
  gate.allow(n);
  await sendMessage(page, text);
  await expect.poll(() => answerText().catch(() => ''), { timeout: limit(15_000) }).toBe(upTo(n));
}

describe('honest states of a running answer', () => {
  const it = e2eSetup(async (own) => {
    own({ close: async () => fs.rmSync(folder, { recursive: true, force: true }) });
    env = own(
      await startChatEnv({
        tokens: (b) => (lastToolResult(b) ? ['The file says: ', lastToolResult(b)!] : TOKENS),
        gate: (i) => gate.gate(i),
        toolCalls: (b) => (b.tools?.some((t: any) => t.function.name === 'read_text_file') && !lastToolResult(b) ? [{ name: 'read_text_file', arguments: JSON.stringify({ path: note }) }] : null),
      }),
    );
    // The page's timers and Date under the test's control from its first script on.
    await env.page.clock.install();
    await env.page.reload();
    await env.page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
    await chooseGptModel(env.page);
  });

  it('a tool call waiting for approval counts down to its automatic deny', async () => {
    const { page } = env;
    const server = await pageFetch(page, 'POST', '/api/mcp-servers', { name: 'files', command: process.execPath, args: [FILESYSTEM, folder], approval: 'ask' });
    expect(server.status).toBe(201);
    expect((await pageFetch(page, 'PATCH', '/api/agents/1', { tool_servers: [{ server_id: server.json.id, tools: null }] })).status).toBe(200);
    await page.getByRole('button', { name: 'New chat' }).click();
    gate.reset();
    gate.allow(TOKENS.length);
    await sendMessage(page, `What does ${note} say?`);
    const step = page.getByTestId('tool-step').last();
    await step.locator('[data-testid="tool-step-status"]', { hasText: 'Waiting for you' }).waitFor({ timeout: limit(30_000) });
    expect(await status()).toBe('Waiting for you');
    // The platform's deadline: 120 s after the call began to wait.
    const deadline = Date.parse((await pageFetch(page, 'GET', `/api/agent-responses/${await lastTurn().getAttribute('data-response-id')}`)).json.steps[0].approval_expires_at);
    await page.clock.pauseAt(deadline - 100_000);
    await expect.poll(() => step.getByTestId('deny-countdown').innerText().then((t) => t.trim())).toBe("Denied automatically in 1:40 if you don't answer.");
    await page.clock.runFor(10_000);
    await expect.poll(() => step.getByTestId('deny-countdown').innerText().then((t) => t.trim())).toBe("Denied automatically in 1:30 if you don't answer.");
    await shotSizesAndThemes(page, 'chat-approval');
    await page.clock.resume();
    await step.getByRole('button', { name: 'Deny' }).click();
    await lastTurnDone(page);
    await step.locator('[data-testid="tool-step-status"]', { hasText: 'Denied' }).waitFor({ timeout: limit(10_000) });
    expect(await step.getByTestId('deny-countdown').count()).toBe(0);
    // The next answers run without the tool.
    expect((await pageFetch(page, 'PATCH', '/api/agents/1', { tool_servers: [] })).status).toBe(200);
    await page.getByRole('button', { name: 'New chat' }).click();
  }, limit(120_000));
  it('a stalled model: the status says for how long no text came, and keeps counting', async () => {
    const { page } = env;
    await sendHeld(page, 'Tell me a long story', 3);
    expect(await status()).toBe('Writing…');
    await page.clock.pauseAt((await pageNow()) + 42_000);
    await expect.poll(status).toBe('No new text for 42 s');
    expect(await lastTurn().getByTestId('turn-status').getAttribute('data-stalled')).toBe('true');
    await page.clock.runFor(5_000);
    await expect.poll(status).toBe('No new text for 47 s');
    await shotSizesAndThemes(page, 'chat-stalled');
    // Text again: back to Writing….
    await page.clock.resume();
    gate.allow(5);
    await expect.poll(() => answerText()).toBe(upTo(5));
    await expect.poll(status).toBe('Writing…');
  }, limit(90_000));

  it('Stop: a neutral "Stopped", the text so far kept, no error', async () => {
    const { page } = env;
    await page.getByTestId('stop').click();
    await lastTurnDone(page, 'Stopped');
    expect(await answerText()).toBe(upTo(5));
    expect(await lastTurn().getByRole('alert').count()).toBe(0);
    await shotSizesAndThemes(page, 'chat-stopped');
  }, limit(60_000));

});
