/**
 * The optional remote platform in a real browser: a second `serve` plays the remote (its own
 * data dir and key, the fake model behind it); the local `serve` has no model of its own, so
 * every answer seen here came through the remote. Connect it in Settings → Remote by typing,
 * see its agents marked, chat with one, share context, import it, then lose the remote.
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai';
import { ensureRendererBuilt } from './support/build';
import { startServe, type ServeProcess } from './support/server';
import { e2eSetup, openPage } from './support/suite';
import { openScreen, pageFetch, shot } from './support/page';
import { startRemotePlatform, type RemotePlatform } from './support/remote';
import { limit } from '../fixtures/until.js';

const REPLY = 'The remote team researcher answers: alpha beta gamma delta epsilon zeta eta theta iota kappa.';

let fake: FakeServer;
let remote: RemotePlatform;
let local: ServeProcess;
let page: Page;
let remoteTotal = 0;

const form = () => page.getByRole('form', { name: 'Remote platform connection' });
const status = (s: string) => page.locator(`[data-testid="remote-status"][data-status="${s}"]`);
const localAgents = async () => (await pageFetch(page, 'GET', '/api/agents?per_page=100')).json.data as any[];

async function openRemoteSettings(): Promise<void> {
  await openScreen(page, 'Settings', 'Settings');
  await page.getByRole('tab', { name: 'Remote', exact: true }).click();
  await page.getByTestId('remote-status').waitFor({ timeout: limit(10_000) });
}

/** Chooses the remote agent of that title (after the import a local copy has the same title). */
async function pickRemoteAgent(title: string): Promise<void> {
  const picker = page.getByTestId('agent-picker');
  const value = await picker.locator('optgroup[label="Remote agents"] option', { hasText: title }).getAttribute('value');
  expect(value, `the picker offers the remote ${title}`).toBeTruthy();
  await picker.selectOption(value!);
}

describe('Agent Desk with a remote platform', () => {
  const it = e2eSetup(async (own) => {
    ensureRendererBuilt();
    fake = own(await startFakeOpenAI({ reply: REPLY, delayMs: 40 }));
    remote = await startRemotePlatform(fake.url);
    own(remote.serve);
    remoteTotal = (await remote.call('GET', '/api/agents?per_page=1')).json.total;
    // No model provider here: an answer can only come from the remote.
    local = own(await startServe({ AGENT_DESK_OLLAMA_AUTODETECT: '0' }));
    ({ page } = own(await openPage()));
  });

  it('starts with the remote not configured', async () => {
    await page.goto(local.loginUrl);
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(15_000) });
    await openRemoteSettings();
    await status('unconfigured').waitFor();
    expect(await form().getByText('No key is stored.').count()).toBe(1);
    expect(await form().getByRole('button', { name: 'Test connection' }).isDisabled()).toBe(true);
  }, limit(30_000));

  it('connects by typing the URL and key, never shows the key again, and tests the connection', async () => {
    await form().getByLabel('Base URL').fill(remote.serve.url);
    await form().getByLabel('API key').fill(remote.key);
    await form().getByRole('button', { name: 'Save', exact: true }).click();
    await status('online').waitFor({ timeout: limit(20_000) });
    expect(await status('online').textContent()).toContain(`${remoteTotal} remote agents listed`);
    // Write-only key: the field is emptied, the page only says that one is stored.
    expect(await form().getByLabel('API key').inputValue()).toBe('');
    await form().getByText('A key is stored.').waitFor();
    expect(await form().getByRole('button', { name: 'Remove key' }).count()).toBe(1);
    expect(await page.content()).not.toContain(remote.key);
    expect(await page.getByTestId('remote-key-encryption').textContent()).toContain('unencrypted');
    const view = (await pageFetch(page, 'GET', '/api/settings/remote')).json;
    expect(view).toMatchObject({ base_url: remote.serve.url, has_api_key: true, status: 'online', agent_count: remoteTotal, key_encrypted: false });

    await form().getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(async () => (await page.getByTestId('remote-test').textContent()) ?? '', { timeout: limit(15_000) }).toMatch(new RegExp(`^Reachable in \\d+ ms: ${remoteTotal} agents on the remote\\.$`));
    await expect.poll(() => form().getByRole('button', { name: 'Test connection' }).isEnabled()).toBe(true);
    await shot(page, 'settings-remote-online');
  }, limit(40_000));

  it('marks the remote agents in the Agents screen and filters by source', async () => {
    await openScreen(page, 'Agents', 'Agents');
    const cards = page.locator('[data-testid="agent-cards"] article');
    const all = await localAgents();
    const remoteRows = all.filter((a) => a.source === 'remote');
    expect(remoteRows).toHaveLength(remoteTotal);
    await page.getByTestId('source-filter').selectOption('remote');
    await expect.poll(() => cards.count(), { timeout: limit(10_000) }).toBe(remoteTotal);
    expect(await page.locator('[data-testid="agent-cards"] article [data-testid="remote-badge"]').count()).toBe(remoteTotal);
    await cards.filter({ hasText: remote.agent.title }).waitFor();
    await shot(page, 'agents-remote-filter');
    await page.getByTestId('source-filter').selectOption('local');
    await expect.poll(() => cards.count(), { timeout: limit(10_000) }).toBe(all.length - remoteTotal);
    expect(await page.locator('[data-testid="agent-cards"] [data-testid="remote-badge"]').count()).toBe(0);
    expect(await cards.filter({ hasText: remote.agent.title }).count()).toBe(0);
    await page.getByTestId('source-filter').selectOption('');
  }, limit(30_000));

  it('chats with a remote agent: marked in the picker, the answer streamed from the remote', async () => {
    await openScreen(page, 'Chat', 'Chat');
    const group = page.locator('[data-testid="agent-picker"] optgroup[label="Remote agents"] option');
    await expect.poll(() => group.count(), { timeout: limit(10_000) }).toBe(remoteTotal);
    expect(await group.filter({ hasText: remote.agent.title }).textContent()).toContain('· remote');
    expect(await page.locator('[data-testid="agent-picker"] optgroup[label="Local agents"] option', { hasText: '· remote' }).count()).toBe(0);
    await pickRemoteAgent(remote.agent.title);
    await page.locator('.chat-head [data-testid="remote-badge"]').waitFor();
    expect(await page.getByTestId('remote-banner').count()).toBe(0);
    const model = await page.$$eval('#q-model option', (os) => (os as HTMLOptionElement[]).map((o) => o.value).find((v) => v.startsWith('gpt-')) ?? '');
    expect(model).not.toBe('');
    await page.selectOption('#q-model', model);

    await page.evaluate(() => {
      const seen: string[] = [];
      (window as any).__renders = seen;
      new MutationObserver(() => {
        const md = [...document.querySelectorAll('[data-testid="turn"]')].at(-1)?.querySelector('.msg-agent .md');
        const text = md?.textContent ?? '';
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document.querySelector('[data-testid="turns"]')!, { subtree: true, childList: true, characterData: true });
    });
    await page.fill('#chat-input', 'Hello remote researcher');
    await page.keyboard.press('Control+Enter');
    const turn = page.locator('[data-testid="turn"]').last();
    await turn.locator('[data-testid="turn-status"]', { hasText: 'Done' }).waitFor({ timeout: limit(30_000) });
    expect(((await turn.locator('.msg-agent .md').textContent()) ?? '').trim()).toBe(REPLY);
    const renders: string[] = await page.evaluate(() => (window as any).__renders);
    expect(renders.filter((r) => r !== REPLY && REPLY.startsWith(r.trim())).length, `partial renders: ${JSON.stringify(renders)}`).toBeGreaterThan(1);
    // The remote's model got the message; the execution is stored locally, under the cached agent.
    expect(fake.prompts().at(-1)?.at(-1)).toMatchObject({ role: 'user', content: 'Hello remote researcher' });
    const id = await turn.getAttribute('data-response-id');
    const stored = (await pageFetch(page, 'GET', `/api/agent-responses/${id}`)).json;
    const cached = (await localAgents()).find((a) => a.source === 'remote' && a.title === remote.agent.title);
    expect(stored).toMatchObject({ status: 'succeeded', output: REPLY, template_id: cached.id });
    await shot(page, 'chat-remote-picker');
    // Headless Chromium draws no open <select> popup: show the grouped list as a list box for the review picture.
    await page.getByTestId('agent-picker').evaluate((el) => el.setAttribute('size', '12'));
    await shot(page, 'chat-remote-picker-list');
    await page.getByTestId('agent-picker').evaluate((el) => el.removeAttribute('size'));
  }, limit(60_000));

  it('opens a remote agent read-only, shares context with it, and imports it as a local agent', async () => {
    await openScreen(page, 'Agents', 'Agents');
    await page.getByTestId('source-filter').selectOption('remote');
    await page.locator('[data-testid="agent-cards"] article', { hasText: remote.agent.title }).getByRole('button', { name: 'Open' }).click();
    const view = page.getByRole('region', { name: `Remote agent ${remote.agent.title}` });
    await view.waitFor({ timeout: limit(10_000) });
    expect(await view.getByTestId('remote-readonly').textContent()).toContain('edited there');
    expect(await view.getByRole('textbox').count()).toBe(0);
    expect(await view.textContent()).toContain('Answer as the team researcher.');
    const cached = (await localAgents()).find((a) => a.source === 'remote' && a.title === remote.agent.title);
    expect(cached.share_context).toBe(false);
    await view.getByLabel('Share my memories and files with this agent').check();
    await expect.poll(async () => (await pageFetch(page, 'GET', `/api/agents/${cached.id}`)).json.share_context, { timeout: limit(10_000) }).toBe(true);
    await shot(page, 'agents-remote-agent');

    await view.getByRole('button', { name: 'Import as local agent' }).click();
    const editor = page.getByRole('form', { name: `Edit ${remote.agent.title}` });
    await editor.waitFor({ timeout: limit(10_000) });
    expect(await editor.getByLabel('Instructions (system prompt)').inputValue()).toBe('Answer as the team researcher.');
    const copies = (await localAgents()).filter((a) => a.title === remote.agent.title);
    expect(copies.map((a) => a.source).sort()).toEqual(['local', 'remote']);
    expect(copies.find((a) => a.source === 'local')).toMatchObject({ instructions: 'Answer as the team researcher.', type: 'chat' });
    await editor.getByRole('button', { name: 'Cancel' }).click();
  }, limit(30_000));

  it('shows the offline state after Refresh once the remote is gone, in Settings and in the chat', async () => {
    await remote.serve.close();
    await openRemoteSettings();
    await form().getByRole('button', { name: 'Refresh agents' }).click();
    await status('offline').waitFor({ timeout: limit(20_000) });
    expect(await page.getByTestId('remote-last-error').textContent()).toContain('unreachable');
    expect(await status('offline').textContent()).toContain(`${remoteTotal} cached agents still listed`);
    expect((await localAgents()).filter((a) => a.source === 'remote')).toHaveLength(remoteTotal);
    await shot(page, 'settings-remote-offline');

    await openScreen(page, 'Chat', 'Chat');
    await pickRemoteAgent(remote.agent.title);
    const banner = page.locator('[data-testid="remote-banner"][data-status="offline"]');
    await banner.waitFor({ timeout: limit(10_000) });
    expect(await banner.textContent()).toContain('The remote platform is offline; cached agents are listed but cannot run until it is back');
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.fill('#chat-input', 'Are you there?');
    await page.keyboard.press('Control+Enter');
    const err = page.locator('[data-testid="turn-error"]').last();
    await err.waitFor({ timeout: limit(20_000) });
    expect(await err.textContent()).toContain('unreachable');
    await shot(page, 'chat-remote-offline');
    await err.getByRole('link', { name: 'Open Settings → Remote' }).click();
    await page.getByRole('tab', { name: 'Remote', selected: true }).waitFor({ timeout: limit(10_000) });
  }, limit(60_000));

  it('disconnects: the remote agents leave the lists, the imported copy stays', async () => {
    await form().getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('dialog', { name: /^Disconnect / }).getByRole('button', { name: 'Disconnect' }).click();
    await status('unconfigured').waitFor({ timeout: limit(10_000) });
    expect(await form().getByLabel('Base URL').inputValue()).toBe('');
    const left = await localAgents();
    expect(left.filter((a) => a.source === 'remote')).toHaveLength(0);
    expect(left.filter((a) => a.title === remote.agent.title && a.source === 'local')).toHaveLength(1);
    await openScreen(page, 'Chat', 'Chat');
    expect(await page.locator('[data-testid="agent-picker"] optgroup').count()).toBe(0);
  }, limit(30_000));
});
