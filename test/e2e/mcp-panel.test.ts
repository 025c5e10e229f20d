/**
 * Settings → MCP servers in Chromium against `serve`, with the real server-everything from
 * node_modules: a server whose start failed shows the platform's sentence and Refresh tools; its
 * edit form asks for the env values again when the arguments change (and says why under the
 * field) before anything is sent; saved, the tools are listed; Refresh tools fetches them again.
 * Screenshots at 1280 and 1024, both themes.
 */
import { describe, expect } from 'vitest';
import { startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { openScreen, pageFetch } from './support/page';
import { shotSizesAndThemes } from './support/shots';
import { seriousViolationsInBothThemes } from './support/axe';
import { EVERYTHING } from '../tools/helpers';
import { limit } from '../fixtures/until.js';

let env: ChatEnv;
const BROKEN = `${EVERYTHING}.missing.js`;

describe('MCP servers panel', () => {
  const it = e2eSetup(async (own) => {
    env = own(await startChatEnv({ reply: 'Fine.' }));
  });

  it('shows why a server has no tools, asks for its secrets again when its arguments change, lists and refreshes its tools', async () => {
    const { page } = env;
    const made = await pageFetch(page, 'POST', '/api/mcp-servers', { name: 'everything', command: process.execPath, args: [BROKEN, 'stdio'], env: { API_TOKEN: 'tok-123456' }, approval: 'ask' });
    expect(made.status).toBe(201);
    const id = made.json.id as number;
    // Its start on save fails: GET answers 409 with a sentence (and never starts it again).
    await expect.poll(async () => (await pageFetch(page, 'GET', `/api/mcp-servers/${id}/tools`)).status, { timeout: limit(30_000) }).toBe(409);

    await openScreen(page, 'Settings', 'Settings');
    await page.getByRole('tab', { name: 'MCP servers' }).click();
    const card = page.locator('[data-testid="mcp-server"][data-name="everything"]');
    const note = card.getByTestId('mcp-tools-note');
    await note.waitFor({ timeout: limit(10_000) });
    expect(await note.innerText()).toMatch(/^The MCP server "everything" did not list its tools/);
    // The start's error is said once, in that sentence.
    expect(await card.locator('.note-error').count()).toBe(1);
    await card.getByTestId('mcp-refresh').waitFor();

    // Edit in place: new arguments, the stored env value not typed again.
    await card.getByTestId('mcp-edit').click();
    const form = card.getByTestId('mcp-edit-form');
    await form.getByTestId('mcp-edit-args').fill(`${EVERYTHING}\nstdio`);
    const why = form.getByTestId('mcp-reenter');
    await why.waitFor();
    expect(await why.innerText()).toContain('You changed the arguments, so enter the env values again (API_TOKEN): stored secrets are only sent to the command they were entered for.');
    const env1 = form.getByTestId('mcp-edit-env');
    expect((await env1.getAttribute('aria-describedby'))?.split(' ')).toContain(await why.getAttribute('id'));
    await why.scrollIntoViewIfNeeded();
    await shotSizesAndThemes(page, 'ui-mcp-edit-secrets');
    const patches: string[] = [];
    page.on('request', (r) => r.method() === 'PATCH' && r.url().includes('/api/mcp-servers/') && patches.push(r.url()));
    await form.getByTestId('mcp-edit-save').click();
    await expect.poll(async () => (await form.getByTestId('mcp-env-error').innerText()).trim()).toBe('Enter API_TOKEN again, or tick “Send none of them”.');
    expect(await env1.getAttribute('aria-invalid')).toBe('true');
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    expect(patches).toEqual([]);
    expect((await pageFetch(page, 'GET', `/api/mcp-servers/${id}`)).json.args).toEqual([BROKEN, 'stdio']);

    await env1.fill('API_TOKEN=tok-123456');
    await expect.poll(() => form.getByTestId('mcp-env-error').count()).toBe(0);
    await form.getByTestId('mcp-edit-save').click();
    await form.waitFor({ state: 'detached', timeout: limit(10_000) });
    expect(patches).toHaveLength(1);
    expect((await pageFetch(page, 'GET', `/api/mcp-servers/${id}`)).json).toMatchObject({ args: [EVERYTHING, 'stdio'], env_keys: ['API_TOKEN'] });

    // Saved: the server starts with the new arguments and its tools are listed.
    const show = card.getByTestId('mcp-list-tools');
    await show.waitFor({ timeout: limit(30_000) });
    expect(await card.getByTestId('mcp-tools-line').innerText()).toMatch(/\d+ tools/);
    await show.click();
    await card.getByTestId('mcp-tools').getByText('echo', { exact: true }).waitFor({ timeout: limit(10_000) });

    // Refresh tools asks the server again (POST refresh), and the list stays shown.
    const refreshed = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/api/mcp-servers/${id}/refresh`));
    await card.getByTestId('mcp-refresh').click();
    expect((await refreshed).status()).toBe(200);
    await card.getByTestId('mcp-refresh').getByText('Refresh tools').waitFor({ timeout: limit(30_000) });
    await card.getByTestId('mcp-tools').getByText('echo', { exact: true }).waitFor();
    await page.locator('[data-testid="mcp-server"][data-name="everything"][data-status="running"]').waitFor({ timeout: limit(10_000) });
    await card.scrollIntoViewIfNeeded();
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    await shotSizesAndThemes(page, 'ui-mcp-tools');
  }, limit(120_000));
});
