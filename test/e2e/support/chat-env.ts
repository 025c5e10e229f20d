import { it as vitestIt } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAIOptions, type FakeServer } from '../../fixtures/fake-openai';
import { ensureRendererBuilt } from './build';
import { startServe, type ServeProcess } from './server';
import { launchBrowser, type Browser } from './browser';
import { pageFetch } from './page';
import { limit } from '../../fixtures/until';

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
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
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
  await page.locator('#q-model').waitFor({ timeout: limit(10_000) });
  // The select is drawn before the served models arrive: wait for one to be offered, on a busy machine too.
  await page.locator('#q-model option[value^="gpt-"]').first().waitFor({ state: 'attached', timeout: limit(15_000) }).catch(() => {});
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
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="turn"]').length > n, before, { timeout: limit(15_000) });
}

/** Waits until the last turn's answer is finished (Done, Stopped or Failed). */
export async function lastTurnDone(page: Page, status = 'Done'): Promise<void> {
  await page.locator('[data-testid="turn"]').last().locator('[data-testid="turn-status"]', { hasText: status }).waitFor({ timeout: limit(40_000) });
}

/** Opens an empty new chat (the composer's Enter/Ctrl+Enter swap back to its default), as a test's own start. */
export async function newChat(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'New chat' }).click();
  // No session in the URL (a first visit may have no hash at all) and no turn on screen.
  await page.waitForFunction(() => !/^#\/chat\/\d+$/.test(location.hash) && document.querySelectorAll('[data-testid="turn"]').length === 0, null, { timeout: limit(15_000) });
  const swap = page.getByTestId('ctrl-enter-sends');
  if (await swap.isChecked()) await swap.uncheck();
}

/**
 * Arranges a conversation through the API, as the app's own client sends it (the chat agent, the
 * model chosen in the page): each message a turn on the session's latest branch, answered before the
 * next; an `{ alternative_of: n }` entry makes that message an alternative of the n-th turn.
 * Returns the session id and the turns' execution ids.
 */
export async function arrangeSession(page: Page, messages: (string | { content: string; alternative_of: number })[]): Promise<{ id: number; turns: number[] }> {
  const agents = (await pageFetch(page, 'GET', '/api/agents?type=chat&per_page=100')).json.data as { id: number; title: string }[];
  const agent = agents.find((a) => a.title === 'Chat')?.id ?? 1;
  const model = await page.locator('#q-model').inputValue();
  const turns: number[] = [];
  for (const m of messages) {
    const content = typeof m === 'string' ? m : m.content;
    const branch = typeof m === 'string' ? (turns.length ? { root_id: turns[0] } : {}) : { alternative_of: turns[m.alternative_of] };
    const body = { model, temperature: '0', tools: 'no-tools', messages: [{ role: 'user', content }], wait_execution: true, ...branch };
    const r = await pageFetch(page, 'POST', `/api/agents/${agent}/execute`, body);
    if (r.status >= 300 || r.json.responses[0].status !== 'succeeded') throw new Error(`arranging the session failed: ${JSON.stringify(r.json)}`);
    turns.push(r.json.responses[0].id);
  }
  return { id: turns[0], turns };
}

/** Opens a stored session by its URL (a history entry, as following a link does) and waits for its `turns` turns. */
export async function openSession(page: Page, id: number, turns: number): Promise<void> {
  await page.evaluate((hash) => (location.hash = hash), `#/chat/${id}`);
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="turn"]').length === n, turns, { timeout: limit(15_000) });
}
