/**
 * First run in a real browser against a real `serve` on an empty data dir: Chat shows the setup
 * panel (no provider), a model download from a stand-in hub shows progress and pauses, the user
 * adds a local OpenAI-compatible server by its URL and gets a streamed answer; then the `openai`
 * SDK calls `/v1/chat/completions` with `model: "chat"` and no other setting. Screenshots of
 * each state at 1280x800 and 1024x700, light and dark.
 */
import OpenAI from 'openai';
import { describe, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai';
import { ensureRendererBuilt } from './support/build';
import { nothingAt, startServe, type ServeProcess } from './support/server';
import { e2eSetup, openPage } from './support/suite';
import { openScreen, pageFetch, shot } from './support/page';
import { startHub, type Hub } from '../models/hub';
import { limit } from '../fixtures/until.js';

const KEY = `first-run-${Math.random().toString(36).slice(2)}-key`;
const REPLY = 'Hello from llama on loopback: one two three four five six seven eight.';

let fake: FakeServer;
let hub: Hub;
let serve: ServeProcess;
let page: Page;
/** Uncaught errors in the page: none may happen on these screens. */
const pageErrors: string[] = [];
/** Clicks the user made, from the empty chat to the streamed answer. */
let clicks = 0;

/** The four looks of one state; `focus` is scrolled into view at each size. */
async function shots(name: string, focus?: Locator): Promise<void> {
  for (const [w, h] of [
    [1280, 800],
    [1024, 700],
  ]) {
    await page.setViewportSize({ width: w, height: h });
    await focus?.scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await shot(page, `first-run-${name}-${w}-${scheme}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('first run: from an empty data dir to a streamed answer', () => {
  const it = e2eSetup(async (own) => {
    ensureRendererBuilt();
    fake = own(await startFakeOpenAI({ models: ['llama-3.1-8b'], reply: REPLY, delayMs: 30 }));
    hub = own(await startHub());
    serve = own(
      await startServe({
        AGENT_DESK_API_KEY: KEY,
        AGENT_DESK_OLLAMA_AUTODETECT: '0',
        // A real Ollama on this machine must not change what the test sees; "LM Studio" is the fake.
        AGENT_DESK_PROBE_OLLAMA_URL: await nothingAt(),
        AGENT_DESK_PROBE_LMSTUDIO_URL: fake.origin,
      }),
    );
    ({ page } = own(await openPage()));
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });

  it('shows the setup panel instead of a message box that would fail', async () => {
    await page.goto(serve.loginUrl);
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(15_000) });
    const panel = page.getByTestId('setup-panel');
    await panel.waitFor({ timeout: limit(15_000) });
    await expect(page.getByRole('heading', { name: 'Connect a model to start chatting' }).isVisible()).resolves.toBe(true);
    // Nothing to send into: the composer is not shown while no model is configured.
    expect(await page.locator('form.composer').isVisible()).toBe(false);
    // Found on its usual port (here the fake's), with the models it serves, one click away.
    await panel.getByText('running · 1 model').waitFor({ timeout: limit(10_000) });
    expect(await panel.getByRole('button', { name: 'Use LM Studio' }).isVisible()).toBe(true);
    expect(await panel.getByText('not running on').count()).toBe(1);
    expect(await panel.getByText('Qwen2.5 0.5B Instruct').isVisible()).toBe(true);
    await shots('setup');
  }, limit(60_000));

  it('downloads a GGUF by URL with progress, pauses and deletes it', async () => {
    hub.stallAfter(Math.floor(hub.bytes.length / 2));
    await page.getByLabel('Hugging Face file URL').fill(hub.url);
    await page.getByTestId('setup-panel').getByRole('button', { name: 'Download', exact: true }).last().click();
    const row = page.getByTestId('download').first();
    await row.getByText('downloading').waitFor({ timeout: limit(15_000) });
    await expect.poll(async () => Number(await row.getByRole('progressbar').getAttribute('aria-valuenow')), { timeout: limit(15_000) }).toBe(50);
    await shots('download', row);
    await row.getByRole('button', { name: 'Pause' }).click();
    await row.getByText('paused').waitFor({ timeout: limit(10_000) });
    await row.scrollIntoViewIfNeeded();
    await shot(page, 'first-run-download-paused-1280-light');
    hub.release();
    await row.getByRole('button', { name: /^Delete/ }).click();
    await expect.poll(() => page.getByTestId('download').count(), { timeout: limit(10_000) }).toBe(0);
    hub.stallAfter(null);
  }, limit(60_000));

  it('adds a local OpenAI-compatible server and gets a streamed answer in two clicks', async () => {
    await page.getByLabel('Server URL').fill(fake.url);
    await page.getByRole('button', { name: 'Connect', exact: true }).first().click();
    clicks++;
    await page.getByTestId('setup-panel').waitFor({ state: 'detached', timeout: limit(15_000) });
    // Focus goes where the next step is, the message box, not to the page the Connect button left.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: limit(10_000) }).toBe('chat-input');
    // The model picker offers what the server serves, grouped by provider, and picked the default.
    const picker = page.locator('#q-model');
    await expect.poll(() => picker.inputValue(), { timeout: limit(10_000) }).toBe('llama-3.1-8b');
    expect(await picker.locator('optgroup').getAttribute('label')).toBe('Server at ' + new URL(fake.url).host);
    await shots('ready');

    await page.fill('#chat-input', 'Say hello');
    await page.locator('form.composer button[type="submit"]').click();
    clicks++;
    const turn = page.locator('[data-testid="turn"]').last();
    await turn.locator('[data-testid="turn-status"]', { hasText: 'Done' }).waitFor({ timeout: limit(30_000) });
    expect(await turn.locator('.msg-agent .md').textContent()).toContain(REPLY);
    expect(fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body.model).toBe('llama-3.1-8b');
    expect(clicks).toBeLessThanOrEqual(3);
    await shots('answer');

    // The default model the platform uses when an agent names none, shown in Settings.
    const def = await pageFetch(page, 'GET', '/api/models/default');
    expect(def.json).toEqual({ model: 'llama-3.1-8b', provider: 'server', source: 'first_listed' });
    await openScreen(page, 'Settings', 'Settings');
    const note = page.getByTestId('effective-default-model');
    await expect.poll(() => note.textContent(), { timeout: limit(10_000) }).toContain('agents that name no model run on llama-3.1-8b, the first model of Server at');
    await shots('settings-default', note);
    expect(pageErrors).toEqual([]);
  }, limit(90_000));

  it('the openai SDK calls /v1/chat/completions with model "chat" and no other setting', async () => {
    const client = new OpenAI({ baseURL: `${serve.url}/v1`, apiKey: KEY, maxRetries: 0, timeout: limit(30_000) });
    const stream = await client.chat.completions.create({ model: 'chat', stream: true, messages: [{ role: 'user', content: 'Hello from the SDK' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe(REPLY);
    const whole = await client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'Again' }] });
    expect(whole.choices[0].message.content).toBe(REPLY);
    expect(fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body.model).toBe('llama-3.1-8b');
  }, limit(60_000));
});
