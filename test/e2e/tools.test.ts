/**
 * Agents that act, in Chromium against `serve`: add the real server-filesystem in Settings → MCP
 * servers (asks before each call), give it to the chat agent in its editor, ask for a file's
 * content, allow the call on its card, see the card done and the answer built from the file.
 * Screenshots of the panel and the chat in both sizes and both themes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { chooseGptModel, lastTurnDone, sendMessage, startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { openScreen, pageFetch, shot } from './support/page';
import { FILESYSTEM, lastToolResult } from '../tools/helpers';
import { limit } from '../fixtures/until.js';

let env: ChatEnv;
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-e2e-files-'));
const note = path.join(folder, 'notes.txt');
fs.writeFileSync(note, 'Meeting moved to Thursday 10:00.');

const SIZES = [
  { w: 1280, h: 800 },
  { w: 1024, h: 700 },
];

async function shots(name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await env.page.emulateMedia({ colorScheme: scheme });
    for (const s of SIZES) {
      await env.page.setViewportSize({ width: s.w, height: s.h });
      await shot(env.page, `tools-${name}-${s.w}x${s.h}-${scheme}`);
    }
  }
  await env.page.emulateMedia({ colorScheme: 'light' });
  await env.page.setViewportSize({ width: 1280, height: 800 });
}

const it = e2eSetup(async (own) => {
  own({ close: async () => fs.rmSync(folder, { recursive: true, force: true }) });
  env = own(
    await startChatEnv({
      // The model reads the file the user names, then answers with what the tool returned.
      toolCalls: (b) => (b.tools?.some((t: any) => t.function.name === 'read_text_file') && !lastToolResult(b) ? [{ name: 'read_text_file', arguments: JSON.stringify({ path: note }) }] : null),
      tokens: (b) => ['The file says: ', lastToolResult(b) ?? '(no tool result)'],
    }),
  );
});

describe('MCP tools in the app', () => {
  it('adds the filesystem server in Settings, gives it to the chat agent, asks for a file, allows the call, sees the card and the answer', async () => {
    const { page } = env;
    await openScreen(page, 'Settings', 'Settings');
    await page.getByRole('tab', { name: 'MCP servers' }).click();
    await page.getByTestId('mcp-name').fill('files');
    await page.getByTestId('mcp-command').fill(process.execPath);
    await page.getByTestId('mcp-args').fill(`${FILESYSTEM}\n${folder}`);
    await page.getByTestId('mcp-approval').selectOption('ask');
    await page.getByTestId('mcp-add').click();
    const card = page.locator('[data-testid="mcp-server"][data-name="files"]');
    await card.waitFor({ timeout: limit(10_000) });
    await card.getByTestId('mcp-list-tools').click();
    await card.getByTestId('mcp-tools').getByText('read_text_file', { exact: true }).waitFor({ timeout: limit(30_000) });
    await page.locator('[data-testid="mcp-server"][data-name="files"][data-status="running"]').waitFor({ timeout: limit(10_000) });
    await shots('settings');

    // The chat agent (the one the chat opens on) gets the server in its editor.
    const chat = (await pageFetch(page, 'GET', '/api/agents/1')).json;
    await openScreen(page, 'Agents', 'Agents');
    await page.locator('article.card', { has: page.getByRole('heading', { name: chat.title, exact: true }) }).getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('checkbox', { name: 'Use the tools of files' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await pageFetch(page, 'GET', '/api/agents/1')).json.tool_servers?.length ?? 0, { timeout: limit(10_000) }).toBe(1);

    await openScreen(page, 'Chat', 'Chat');
    await chooseGptModel(page);
    await sendMessage(page, `What does ${note} say?`);
    const step = page.getByTestId('tool-step').last();
    await step.locator('[data-testid="tool-step-status"]', { hasText: 'Waiting for you' }).waitFor({ timeout: limit(30_000) });
    expect(await step.textContent()).toContain('read_text_file');
    expect(await step.textContent()).toContain('files');
    expect(await step.textContent()).toContain(note);
    await shots('approval');

    await step.getByRole('button', { name: 'Allow once' }).click();
    await lastTurnDone(page);
    await step.locator('[data-testid="tool-step-status"]', { hasText: 'Done' }).waitFor({ timeout: limit(10_000) });
    const answer = page.locator('[data-testid="turn"]').last().getByTestId('answer');
    expect(await answer.textContent()).toContain('The file says: Meeting moved to Thursday 10:00.');
    expect(await step.textContent()).toContain('allowed by you');
    expect(await step.getByTestId('tool-step-result').textContent()).toBe('Meeting moved to Thursday 10:00.');
    await shots('done');
    // No failed call of this feature's endpoints (the page's other console noise is not this test's subject).
    expect(env.problems.filter((p) => /mcp-servers|agent-responses|\/steps\//.test(p))).toEqual([]);
  }, limit(180_000));
});
