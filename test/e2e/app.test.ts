/**
 * The app in a real browser against a real `serve` (the fake model provider behind it):
 * login by the printed link, chat streaming and stop, drop uploads, memories, webhooks, keys,
 * and screenshots of every screen. Runs in one browser and one server to stay near a minute.
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai';
import { ensureRendererBuilt } from './support/build';
import { startServe, type ServeProcess } from './support/server';
import { type Browser } from './support/browser';
import { e2eSetup, openPage } from './support/suite';
import { startReceiver, type Receiver } from './support/receiver';
import { dropFiles, openScreen, pageFetch, shot } from './support/page';
import { limit } from '../fixtures/until.js';

const REPLY = 'Streaming **works** here: one two three four five six seven eight nine ten eleven twelve.\n\n```js\nconsole.log("streamed code");\n```\n';

let fake: FakeServer;
let serve: ServeProcess;
let browser: Browser;
let receiver: Receiver;
let page: Page;

async function chooseGptModel(p: Page): Promise<string> {
  const model = await p.$$eval('#q-model option', (os) => (os as HTMLOptionElement[]).map((o) => o.value).find((v) => v.startsWith('gpt-')) ?? '');
  expect(model, 'the chat agent offers a gpt-* model').not.toBe('');
  await p.selectOption('#q-model', model);
  return model;
}

describe('Agent Desk in a browser', () => {
  const it = e2eSetup(async (own) => {
    ensureRendererBuilt();
    fake = own(await startFakeOpenAI({ reply: REPLY, delayMs: 40 }));
    receiver = own(await startReceiver());
    serve = await startServe({ AGENT_DESK_OPENAI_BASE_URL: fake.url });
    // A test restarts serve on the same data: close whichever one is running at the end.
    own({ close: () => serve.close() });
    ({ browser, page } = own(await openPage()));
  }, limit(120_000));

  it('logs in by the one-time link serve printed and lands on the chat', async () => {
    await page.goto(serve.loginUrl);
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(15_000) });
    await page.locator('#q-model').waitFor();
    // The link works once: a second use signs nobody in.
    const again = await browser.context.request.get(serve.loginUrl, { maxRedirects: 0 });
    expect(again.status()).toBeGreaterThanOrEqual(400);
  }, limit(30_000));

  it('streams an answer progressively, with credits at the end', async () => {
    await chooseGptModel(page);
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as any).__renders = seen;
      new MutationObserver(() => {
        const turns = document.querySelectorAll('[data-testid="turn"]');
        const md = turns[turns.length - 1]?.querySelector('.msg-agent .md');
        const text = md?.textContent ?? '';
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document.querySelector('[data-testid="turns"]')!, { subtree: true, childList: true, characterData: true });
    });
    await page.fill('#chat-input', 'Show me streaming');
    await page.keyboard.press('Control+Enter');
    const turn = page.locator('[data-testid="turn"]').last();
    await turn.locator('[data-testid="turn-status"]', { hasText: 'Done' }).waitFor({ timeout: limit(20_000) });
    const final = (await turn.locator('.msg-agent .md').textContent()) ?? '';
    expect(final).toContain('Streaming works here');
    expect(final).toContain('twelve.');
    const renders: string[] = await page.evaluate(() => (window as any).__renders);
    const intermediate = renders.filter((r) => r !== final && final.startsWith(r.slice(0, 10)));
    expect(intermediate.length, `intermediate renders: ${JSON.stringify(renders)}`).toBeGreaterThan(1);
    await expect.poll(() => turn.locator('[data-testid="turn-speed"]').count()).toBe(1);
    await turn.getByRole('button', { name: 'Sources used' }).click();
    await turn.getByTestId('sources').waitFor({ timeout: limit(10_000) });
    await turn.getByRole('button', { name: 'Hide sources' }).click();
    await shot(page, 'chat-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'chat-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  }, limit(40_000));

  it('regenerates the last answer and rebuilds a session from the list', async () => {
    const turn = page.locator('[data-testid="turn"]').last();
    const before = await turn.getAttribute('data-response-id');
    fake.set({ reply: 'A regenerated answer.', delayMs: 5 });
    await turn.getByRole('button', { name: 'Regenerate' }).click();
    await expect.poll(() => turn.getAttribute('data-response-id'), { timeout: limit(15_000) }).not.toBe(before);
    await turn.locator('[data-testid="turn-status"]', { hasText: 'Done' }).waitFor({ timeout: limit(15_000) });
    expect(await turn.locator('.msg-agent .md').textContent()).toContain('A regenerated answer.');
    await page.getByRole('button', { name: 'New chat' }).click();
    await expect.poll(() => page.locator('[data-testid="turn"]').count()).toBe(0);
    // Regenerating added an alternative in the same session; reopened, it shows the newest one.
    await page.getByRole('complementary', { name: 'Sessions' }).getByRole('button', { name: /^Show me streaming/ }).first().click();
    const restored = page.locator('[data-testid="turn"]');
    await expect.poll(() => restored.count(), { timeout: limit(10_000) }).toBe(1);
    expect(await restored.first().locator('.msg-user').textContent()).toContain('Show me streaming');
    expect(await restored.first().locator('.msg-agent .md').textContent()).toContain('A regenerated answer.');
    fake.set({ reply: REPLY, delayMs: 40 });
  }, limit(40_000));

  it('stops a running answer with Esc and cancels it on the platform', async () => {
    fake.set({ reply: Array.from({ length: 200 }, (_, i) => `word${i}`).join(' '), delayMs: 60 });
    await page.fill('#chat-input', 'Write a long text');
    await page.keyboard.press('Control+Enter');
    const turn = page.locator('[data-testid="turn"]').last();
    await turn.locator('.msg-agent .md').waitFor({ timeout: limit(15_000) });
    await page.keyboard.press('Escape');
    await turn.locator('[data-testid="turn-status"]', { hasText: 'Stopped' }).waitFor({ timeout: limit(10_000) });
    const id = await turn.getAttribute('data-response-id');
    expect(id).toMatch(/^\d+$/);
    await expect.poll(async () => (await pageFetch(page, 'GET', `/api/agent-responses/${id}`)).json?.status, { timeout: limit(10_000) }).toBe('canceled');
    const shown = (await turn.locator('.msg-agent .md').textContent()) ?? '';
    expect(shown).not.toContain('word199');
    fake.set({ reply: REPLY, delayMs: 40 });
  }, limit(40_000));

  it('uploads three dropped files and follows them to completed', async () => {
    await openScreen(page, 'Files', 'Files');
    await dropFiles(page, [
      { name: 'notes.txt', type: 'text/plain', text: 'Plain notes about the e2e test.\n'.repeat(20) },
      { name: 'table.csv', type: 'text/csv', text: 'name,value\nalpha,1\nbeta,2\n' },
      { name: 'readme.md', type: 'text/markdown', text: '# Readme\n\nSome *markdown* text.\n' },
    ]);
    for (const name of ['notes.txt', 'table.csv', 'readme.md']) {
      await page.locator(`[data-testid="upload-row"][data-name="${name}"][data-status="completed"]`).waitFor({ timeout: limit(30_000) });
      await page.locator(`[data-testid="file-row"][data-name="${name}"][data-status="completed"]`).waitFor({ timeout: limit(5_000) });
    }
    await shot(page, 'files');
    // The name search and the status filter are answered by the server.
    const rows = page.locator('[data-testid="file-row"]');
    await page.fill('#file-filter', 'TABLE');
    await expect.poll(async () => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-name'))), { timeout: limit(5_000) }).toEqual(['table.csv']);
    await page.fill('#file-filter', '');
    await expect.poll(() => rows.count(), { timeout: limit(5_000) }).toBeGreaterThanOrEqual(3);
    await page.getByTestId('file-status-filter').selectOption('failed');
    await page.getByText('No files match.').waitFor({ timeout: limit(5_000) });
    await page.getByTestId('file-status-filter').selectOption('');
    await page.locator('[data-testid="file-row"][data-name="notes.txt"]').waitFor({ timeout: limit(5_000) });
    // Link two of them to the Document Q&A agent.
    const agents = (await pageFetch(page, 'GET', '/api/agents?per_page=100')).json.data as any[];
    const qa = agents.find((a) => a.title === 'Document Q&A') ?? agents[0];
    await page.getByLabel('Select notes.txt').check();
    await page.getByLabel('Select table.csv').check();
    await page.getByLabel('Link to').selectOption(String(qa.id));
    await page.getByRole('button', { name: 'Link selected' }).click();
    await expect.poll(async () => ((await pageFetch(page, 'GET', `/api/agents/${qa.id}/files`)).json.files as any[]).map((f) => f.filename).sort()).toEqual(['notes.txt', 'table.csv']);
  }, limit(60_000));

  it('attaches a dropped file to a chat message and shows the passage the model was given', async () => {
    await openScreen(page, 'Chat', 'Chat');
    await page.getByRole('button', { name: 'New chat' }).click();
    await dropFiles(page, [{ name: 'facts.txt', type: 'text/plain', text: 'The launch code of the e2e rocket is PURPLE-42.\n' }]);
    await page.getByRole('list', { name: 'Attachments' }).locator('li', { hasText: 'facts.txt' }).waitFor({ timeout: limit(10_000) });
    await page.fill('#chat-input', 'What is the launch code of the e2e rocket?');
    // Send waits for the upload to finish.
    await expect.poll(() => page.getByTestId('send').isDisabled(), { timeout: limit(15_000) }).toBe(false);
    await page.getByTestId('send').click();
    const turn = page.locator('[data-testid="turn"]').last();
    await turn.locator('[data-testid="turn-status"]', { hasText: 'Done' }).waitFor({ timeout: limit(20_000) });
    expect(await turn.locator('.msg-user .chip').textContent()).toContain('facts.txt');
    await turn.getByRole('button', { name: 'Sources used' }).click();
    await expect.poll(async () => (await turn.getByTestId('sources').textContent()) ?? '', { timeout: limit(10_000) }).toContain('PURPLE-42');
    expect(JSON.stringify(fake.prompts().at(-1))).toContain('PURPLE-42');
    await shot(page, 'chat-sources');
  }, limit(40_000));

  it('creates a collection and a memory, edits it, then deletes it', async () => {
    await openScreen(page, 'Memories', 'Memories');
    await page.fill('#new-collection', 'Travel');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByTestId('collections').getByRole('button', { name: 'Travel', exact: true }).click();
    await page.fill('[data-testid="new-memory"]', 'I prefer window seats.');
    await page.getByRole('button', { name: 'Save memory' }).click();
    const item = page.locator('[data-testid="memory"]', { hasText: 'I prefer window seats.' });
    await item.waitFor({ timeout: limit(10_000) });
    await expect.poll(() => item.locator('.badge').first().textContent()).toBe('Travel');
    const id = await item.getAttribute('data-memory-id');
    const byId = page.locator(`[data-testid="memory"][data-memory-id="${id}"]`);
    await byId.getByRole('button', { name: 'Edit' }).click();
    await byId.locator('textarea').fill('I prefer aisle seats.');
    await byId.getByRole('button', { name: 'Save' }).click();
    const edited = page.locator('[data-testid="memory"]', { hasText: 'I prefer aisle seats.' });
    await edited.waitFor({ timeout: limit(10_000) });
    await shot(page, 'memories');
    // Move it to another collection, then find it there.
    await page.fill('#new-collection', 'Work');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByTestId('collections').getByRole('button', { name: 'Work', exact: true }).waitFor();
    await edited.getByLabel('Move to').selectOption({ label: 'Work' });
    await edited.waitFor({ state: 'detached', timeout: limit(10_000) });
    await page.getByTestId('collections').getByRole('button', { name: 'Work', exact: true }).click();
    await edited.waitFor({ timeout: limit(10_000) });
    expect(await edited.locator('.badge').first().textContent()).toBe('Work');
    await edited.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this memory?' }).getByRole('button', { name: 'Delete memory' }).click();
    await edited.waitFor({ state: 'detached', timeout: limit(10_000) });
    const list = await pageFetch(page, 'GET', '/api/memories?q=aisle');
    expect(list.json.memories).toHaveLength(0);
  }, limit(40_000));

  it('adds a webhook, sends a test and sees the delivery in the log', async () => {
    await openScreen(page, 'Webhooks', 'Webhooks');
    await page.fill('[data-testid="webhook-url"]', receiver.url);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect.poll(async () => (await page.getByTestId('webhook-secret').textContent()) ?? '').toMatch(/^whsec_/);
    const hook = page.locator('[data-testid="webhook"]', { hasText: receiver.url });
    await hook.getByRole('button', { name: 'Send test' }).click();
    await hook.locator('[data-testid="delivery-code"]', { hasText: '200' }).first().waitFor({ timeout: limit(15_000) });
    expect(receiver.received.length).toBeGreaterThanOrEqual(1);
    expect(receiver.received[0].headers['webhook-signature']).toMatch(/^v1,/);
    await shot(page, 'webhooks');
    const first = ((await page.getByTestId('webhook-secret').textContent()) ?? '').trim();
    await hook.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
    await expect.poll(async () => ((await page.getByTestId('webhook-secret').textContent()) ?? '').trim()).not.toBe(first);
    await hook.getByRole('button', { name: 'Pause' }).click();
    await hook.getByText('Paused', { exact: true }).waitFor({ timeout: limit(10_000) });
    await hook.getByRole('button', { name: 'Resume' }).click();
    await hook.getByText('Active', { exact: true }).waitFor({ timeout: limit(10_000) });
  }, limit(40_000));

  it('creates an API key that works, then revokes it', async () => {
    await openScreen(page, 'Settings', 'Settings');
    await page.getByRole('tab', { name: 'API keys' }).click();
    await page.fill('[data-testid="key-name"]', 'e2e script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = ((await page.getByTestId('new-key').textContent()) ?? '').trim();
    expect(key.length).toBeGreaterThan(16);
    const withKey = () => fetch(`${serve.url}/api/agents`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
    expect(await withKey()).toBe(200);
    const row = page.locator('[data-testid="key-row"][data-name="e2e script"]');
    await shot(page, 'settings-keys');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog', { name: 'Revoke the key “e2e script”?' }).getByRole('button', { name: 'Revoke key' }).click();
    await page.locator('[data-testid="key-row"][data-name="e2e script"][data-revoked="true"]').waitFor({ timeout: limit(10_000) });
    expect(await withKey()).toBe(401);
  }, limit(30_000));

  it('offers only models a provider serves; a model nobody serves fails clearly, naming Settings', async () => {
    await openScreen(page, 'Chat', 'Chat');
    // The picker lists what the configured providers serve now (the fake lists gpt-4o-mini and gpt-5), grouped by provider.
    await expect.poll(() => page.$$eval('#q-model option', (os) => (os as HTMLOptionElement[]).map((o) => o.value).sort()), { timeout: limit(10_000) }).toEqual(['gpt-4o-mini', 'gpt-5']);
    expect(await page.locator('#q-model optgroup').count()).toBeGreaterThan(0);
    // A client that still names a model no provider serves (here a Claude model, no Anthropic key) gets a clear failure.
    const agent = (await pageFetch(page, 'GET', '/api/agents?type=chat')).json.data.find((a: any) => a.slug === 'chat');
    const claude = agent.questions.find((q: any) => q.name === 'model').options.find((o: string) => o.startsWith('claude-'));
    const run = await pageFetch(page, 'POST', `/api/agents/${agent.id}/execute`, { model: claude, temperature: '0', tools: 'no-tools', messages: [{ role: 'user', content: 'Hello Claude' }], wait_execution: true });
    expect(run.json.responses[0]).toMatchObject({ status: 'failed', error: { code: 'model_unavailable', message: expect.stringContaining('Settings → Providers') } });
  }, limit(30_000));

  it('adds a model provider after testing it (listing its models), and saves localhost settings', async () => {
    await openScreen(page, 'Settings', 'Settings');
    await page.getByRole('tab', { name: 'Providers' }).click();
    const form = page.getByRole('form', { name: 'Add a provider' });
    await form.getByLabel('Name').fill('Fake local');
    await form.getByLabel('Base URL').fill(fake.url);
    await form.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(async () => (await form.getByRole('status').textContent()) ?? '', { timeout: limit(10_000) }).toMatch(/Connected in \d+ ms: 2 models\./);
    expect(await form.textContent()).toContain('gpt-4o-mini');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await page.locator('[data-testid="provider"]', { hasText: 'Fake local' }).waitFor({ timeout: limit(10_000) });
    const saved = (await pageFetch(page, 'GET', '/api/settings/providers')).json;
    expect(saved.providers.find((p: any) => p.label === 'Fake local')).toMatchObject({ kind: 'openai-compatible', base_url: fake.url, source: 'settings' });
    // Adding one keeps the provider configured by the environment.
    expect(saved.providers.map((p: any) => p.id)).toContain('openai');
    await shot(page, 'settings-providers-added');

    await page.getByRole('tab', { name: 'Localhost API' }).click();
    await page.getByLabel('Allowed origins (one per line)').fill('http://localhost:5678');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => (await pageFetch(page, 'GET', '/api/settings/localhost')).json.allowed_origins).toEqual(['http://localhost:5678']);
  }, limit(30_000));

  it('creates an agent from a template, edits its instructions, deletes it', async () => {
    // Keyboard: "g" then a screen's letter.
    await page.locator('body').click({ position: { x: 5, y: 790 } });
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor({ timeout: limit(5_000) });
    await page.getByRole('tab', { name: 'Templates' }).click();
    const card = page.locator('[data-testid="template-cards"] article').first();
    const title = ((await card.locator('h3').textContent()) ?? '').trim();
    // The template fills the new-agent form; nothing is saved until Create agent.
    await card.getByRole('button', { name: `Use the template ${title}` }).click();
    await page.getByRole('button', { name: 'Create agent' }).click();
    const editor = page.getByRole('form', { name: `Edit ${title}` });
    await editor.waitFor({ timeout: limit(10_000) });
    await editor.getByLabel('Instructions (system prompt)').fill('Answer in one sentence.');
    await shot(page, 'agents-editor');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    const agents = await pageFetch(page, 'GET', '/api/agents?per_page=100');
    const made = (agents.json.data as any[]).filter((a) => a.title === title && a.instructions === 'Answer in one sentence.');
    expect(made).toHaveLength(1);
    await page.locator('[data-testid="agent-cards"] article', { hasText: title }).last().getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('button', { name: 'Delete agent' }).click();
    await page.getByRole('dialog', { name: `Delete the agent “${title}”?` }).getByRole('button', { name: 'Delete agent' }).click();
    await expect.poll(async () => (await pageFetch(page, 'GET', `/api/agents/${made[0].id}`)).status).toBe(404);
  }, limit(30_000));

  it('renders every other screen (screenshots for review)', async () => {
    for (const [label, name] of [
      ['Agents', 'agents'],
      ['Developer', 'developer'],
    ] as const) {
      await openScreen(page, label, label);
      await shot(page, name);
    }
    await openScreen(page, 'Settings', 'Settings');
    for (const tab of ['Providers', 'Localhost API', 'Data folder']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('tab', { name: tab, selected: true }).waitFor();
      await shot(page, `settings-${tab.toLowerCase().replace(/ /g, '-')}`);
    }
    // Keyboard: "g" then a screen's letter.
    await page.locator('body').click({ position: { x: 5, y: 790 } });
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor({ timeout: limit(5_000) });
    await page.getByRole('tab', { name: 'Templates' }).click();
    await page.locator('[data-testid="template-cards"] article').first().waitFor({ timeout: limit(10_000) });
    await shot(page, 'agents-templates');
    await page.emulateMedia({ colorScheme: 'dark' });
    await openScreen(page, 'Memories', 'Memories');
    await shot(page, 'memories-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    // The toggle overrides the system setting: system → light → dark.
    await page.getByRole('button', { name: /Change theme/ }).click();
    await page.getByRole('button', { name: /Change theme/ }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await openScreen(page, 'Webhooks', 'Webhooks');
    await shot(page, 'webhooks-dark-toggle');
    await page.getByRole('button', { name: /Change theme/ }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
  }, limit(40_000));

  it('says "signed out" once the session cookie is gone, rather than failing screens', async () => {
    await browser.context.clearCookies();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Signed out' }).waitFor({ timeout: limit(10_000) });
    await shot(page, 'signed-out');
  }, limit(20_000));

  it('lists sessions from the platform: one made in this browser shows up in another after login', async () => {
    // serve prints one login link per start: restart it on the same data, then sign in from a
    // second browser with its own profile (no cookie, no localStorage of the first).
    const dataDir = serve.dataDir;
    await serve.close({ keepData: true });
    serve = await startServe({ AGENT_DESK_OPENAI_BASE_URL: fake.url }, 45_000, dataDir);
    const second = await openPage();
    try {
      const p2 = second.page;
      await p2.goto(serve.loginUrl);
      await p2.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(15_000) });
      const list = p2.getByRole('complementary', { name: 'Sessions' });
      const made = list.getByRole('button', { name: /^Show me streaming/ }).first();
      await made.waitFor({ timeout: limit(10_000) });
      expect(await list.getByRole('button', { name: /^What is the launch code of the e2e rocket\?/ }).count()).toBe(1);
      await made.click();
      // The regenerated session, continued by the stopped "Write a long text" turn.
      const restored = p2.locator('[data-testid="turn"]');
      await expect.poll(() => restored.count(), { timeout: limit(10_000) }).toBe(2);
      expect(await restored.first().locator('.msg-agent .md').textContent()).toContain('A regenerated answer.');
      expect(await restored.last().locator('.msg-user').textContent()).toContain('Write a long text');
      // Deleting it there removes it from the platform.
      const before = (await pageFetch(p2, 'GET', '/api/sessions')).json.total as number;
      await list.locator('[data-testid="session"]').first().getByRole('button', { name: /^Delete session/ }).click();
      await p2.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
      await expect.poll(async () => (await pageFetch(p2, 'GET', '/api/sessions')).json.total, { timeout: limit(10_000) }).toBe(before - 1);
    } finally {
      await second.close();
    }
  }, limit(90_000));
});
