import { it as vitestIt } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAIOptions, type FakeServer } from '../../fixtures/fake-openai';
import { ensureRendererBuilt } from './build';
import { startServe, type ServeProcess } from './server';
import { launchBrowser, type Browser } from './browser';

/** One fake provider, one `serve`, one Chromium page signed in on the chat: what the chat-* suites share. */
export interface ChatEnv {
  fake: FakeServer;
  serve: ServeProcess;
  browser: Browser;
  page: Page;
  /** console errors and failed requests the page logged, for "no console error" checks */
  problems: string[];
  close(): Promise<void>;
}

export async function startChatEnv(fakeOpts: FakeOpenAIOptions, opts: { viewport?: { width: number; height: number }; env?: Record<string, string> } = {}): Promise<ChatEnv> {
  ensureRendererBuilt();
  const fake = await startFakeOpenAI(fakeOpts);
  let serve: ServeProcess | undefined;
  let browser: Browser | undefined;
  try {
    serve = await startServe({ AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_OLLAMA_AUTODETECT: '0', ...opts.env });
    browser = await launchBrowser();
    const page = await browser.context.newPage();
    if (opts.viewport) await page.setViewportSize(opts.viewport);
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 400 && r.status() !== 401) problems.push(`HTTP ${r.status()} ${r.url()}`);
    });
    await page.goto(serve.loginUrl);
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: 20_000 });
    const s = serve;
    const b = browser;
    return {
      fake,
      serve: s,
      browser: b,
      page,
      problems,
      async close() {
        await b.close();
        await s.close();
        await fake.close();
      },
    };
  } catch (err) {
    await browser?.close();
    await serve?.close();
    await fake.close();
    throw err;
  }
}

/** A test that fails (never skips) with the setup's own error when the setup could not run, e.g. no Chromium. */
export function guardedIt(getError: () => unknown) {
  return (name: string, fn: () => Promise<void>, timeout: number) =>
    vitestIt(
      name,
      async () => {
        const err = getError();
        if (err) throw err;
        await fn();
      },
      timeout,
    );
}

/** Picks a gpt-* model in the chat's options (the fake serves them). */
export async function chooseGptModel(page: Page): Promise<void> {
  await page.locator('#q-model').waitFor({ timeout: 10_000 });
  const model = await page.$$eval('#q-model option', (os) => (os as HTMLOptionElement[]).map((o) => o.value).find((v) => v.startsWith('gpt-')) ?? '');
  if (!model) throw new Error('the chat agent offers no gpt-* model');
  await page.selectOption('#q-model', model);
}

/** Types into the composer and sends with Enter, as a person does. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const turns = page.locator('[data-testid="turn"]');
  const before = await turns.count();
  const box = page.locator('#chat-input');
  await box.click();
  await box.fill(text);
  await box.press('Enter');
  // Sent once its turn is on screen (so a following wait looks at the new turn, not the last one).
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="turn"]').length > n, before, { timeout: 15_000 });
}

/** Waits until the last turn's answer is finished (Done, Stopped or Failed). */
export async function lastTurnDone(page: Page, status = 'Done'): Promise<void> {
  await page.locator('[data-testid="turn"]').last().locator('[data-testid="turn-status"]', { hasText: status }).waitFor({ timeout: 40_000 });
}
