/**
 * One truth about models, in Chromium against `serve` with a local OpenAI-compatible server
 * connected through the first-run setup (a fake on loopback listing two models): the chat, the
 * agent editor and the schedule form offer exactly what it serves, the default marked and chosen;
 * a schedule made with the form's defaults runs; Settings sets the default in one place, edits a
 * provider's key in place and says under the field that a server needs its address.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai';
import { until } from '../fixtures/until';
import { ensureRendererBuilt } from './support/build';
import { nothingAt, startServe, type ServeProcess } from './support/server';
import { openScreen, pageFetch, shot } from './support/page';
import { e2eSetup, openPage } from './support/suite';
import { seriousViolations } from './support/axe';
import { limit } from '../fixtures/until.js';

const SERVED = ['llama-3.1-8b', 'qwen2.5-7b-instruct'];
const REPLY = 'Scheduled hello from the local server.';

let local: FakeServer;
let keyed: FakeServer;
let serve: ServeProcess | undefined;
let page: Page;
let env: Record<string, string>;
const problems: string[] = [];
let unreachable = '';

async function signIn(s: ServeProcess): Promise<void> {
  await page.goto(s.loginUrl);
  await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
}

/** The models a picker offers (its empty "none" choice left out) and the one marked default. */
async function offered(selector: string): Promise<{ values: string[]; marked: string[]; value: string }> {
  return page.locator(selector).evaluate((el) => {
    const s = el as HTMLSelectElement;
    const opts = [...s.options].filter((o) => o.value);
    return { values: opts.map((o) => o.value), marked: opts.filter((o) => o.text.includes('(default)')).map((o) => o.value), value: s.value };
  });
}

/** Screenshots at 1280 and 1024 wide, light and dark, `target` centred at each size, toasts dismissed so they hide nothing. */
async function shots(name: string, target?: string): Promise<void> {
  for (const b of await page.getByRole('button', { name: 'Dismiss' }).all()) await b.click();
  for (const [w, h] of [
    [1280, 800],
    [1024, 700],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    if (target) await page.locator(target).first().evaluate((el) => el.scrollIntoView({ block: 'center' }));
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await shot(page, `${name}-${w}-${scheme}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

async function openProviders(): Promise<void> {
  await openScreen(page, 'Settings', 'Settings');
  await page.getByRole('tab', { name: 'Providers' }).click();
  await page.getByTestId('provider').first().waitFor();
}

describe('models: one list, one default, providers edited in place', () => {
  const it = e2eSetup(async (own) => {
    ensureRendererBuilt();
    local = own(await startFakeOpenAI({ models: SERVED, reply: REPLY, delayMs: 1 }));
    keyed = own(await startFakeOpenAI({ models: ['keyed-model'], apiKey: 'sk-new', reply: 'keyed' }));
    const nothing = await nothingAt();
    env = { AGENT_DESK_OLLAMA_AUTODETECT: '0', AGENT_DESK_PROBE_OLLAMA_URL: nothing, AGENT_DESK_PROBE_LMSTUDIO_URL: nothing };
    serve = await startServe(env);
    own({ close: async () => serve?.close() });
    ({ page } = own(await openPage()));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await signIn(serve);
    // The first-run setup, as a person does it: a wrong address first reads as one plain sentence.
    await page.getByLabel('Server URL').fill(`${nothing}/v1`);
    await page.getByRole('button', { name: 'Connect', exact: true }).first().click();
    const alert = page.getByTestId('setup-panel').getByRole('alert');
    await alert.waitFor({ timeout: limit(15_000) });
    unreachable = (await alert.textContent()) ?? '';
    // Then the server's address, Connect.
    await page.getByLabel('Server URL').fill(local.url);
    await page.getByRole('button', { name: 'Connect', exact: true }).first().click();
    await page.getByTestId('setup-panel').waitFor({ state: 'detached', timeout: limit(15_000) });
  });

  it('Settings sets the default model in one place; the chat, agent editor and schedule pickers offer exactly the served models, the default marked', async () => {
    expect(unreachable).toBe(`Nothing answered at ${new URL(env.AGENT_DESK_PROBE_LMSTUDIO_URL).host}. Start the server there, or check the address.`);
    // Chat: exactly what the server serves (none of the chat agent's 25 listed cloud ids), starting on the default, marked.
    await page.locator('#q-model').waitFor({ timeout: limit(10_000) });
    await expect.poll(() => offered('#q-model'), { timeout: limit(10_000) }).toEqual({ values: SERVED, marked: [SERVED[0]], value: SERVED[0] });
    await shots('models-chat');

    await openProviders();
    // Automatic at first: the first model the server lists, said in one sentence.
    const effect = page.getByTestId('effective-default-model');
    await expect.poll(() => effect.textContent(), { timeout: limit(10_000) }).toContain(`run on ${SERVED[0]}, the first model of Server at`);
    const picker = page.getByTestId('default-model');
    expect((await offered('[data-testid="default-model"]')).values).toEqual(SERVED);
    await picker.selectOption(SERVED[1]);
    await expect.poll(() => effect.textContent(), { timeout: limit(10_000) }).toBe(`New chats and schedules start on ${SERVED[1]}; agents that name no model run on it too.`);
    expect((await pageFetch(page, 'GET', '/api/models/default')).json).toEqual({ model: SERVED[1], provider: null, source: 'setting' });
    // The card lists the provider's models and says it answers.
    const card = page.getByTestId('provider').first();
    expect(await card.getByTestId('provider-status').textContent()).toBe('Reachable · 2 models');
    expect(await card.getByTestId('provider-models').locator('li').allTextContents()).toEqual([SERVED[0], `${SERVED[1]} · default`]);
    // Routing is advanced, and shows no rule for providers that are not set up (none here: eleven built-in ones are hidden).
    const routing = page.getByTestId('advanced-routing');
    expect(await routing.getAttribute('open')).toBeNull();
    await routing.locator('summary').click();
    expect(await routing.getByTestId('routing-rule').count()).toBe(0);
    await routing.getByTestId('no-routing-rules').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await shots('models-settings');
    await shots('models-routing', '[data-testid="advanced-routing"]');
    await routing.locator('summary').click();

    // Agent editor: the model question is a picker of served models, not 25 ids to type.
    await openScreen(page, 'Agents', 'Agents');
    const chatCard = page.getByTestId('agent-cards').locator('article').filter({ has: page.getByRole('heading', { name: 'Chat', exact: true }) });
    await chatCard.getByRole('button', { name: 'Edit' }).click();
    const editorPicker = page.getByTestId('agent-model-picker');
    await editorPicker.waitFor();
    expect(await offered('[data-testid="agent-model-picker"]')).toEqual({ values: SERVED, marked: [SERVED[1]], value: '' });
    expect(await editorPicker.locator('option').first().textContent()).toBe("The app's default model");
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await shots('models-agent-editor', '[data-testid="agent-model-picker"]');
    await page.getByRole('button', { name: 'Cancel' }).click();

    // Schedules: the same list and default; none of the agent's 25 listed cloud ids.
    await openScreen(page, 'Schedules', 'Schedules');
    const form = page.getByRole('form', { name: 'New schedule' });
    await form.locator('select[id$="-model"]').waitFor();
    await expect.poll(() => offered('form[aria-label="New schedule"] select[id$="-model"]'), { timeout: limit(10_000) }).toEqual({ values: SERVED, marked: [SERVED[1]], value: SERVED[1] });

    // The chat marks the new default too; it keeps the model it was on (a new chat starts from the last one used).
    await openScreen(page, 'Chat', 'Chat');
    await expect.poll(() => offered('#q-model'), { timeout: limit(10_000) }).toEqual({ values: SERVED, marked: [SERVED[1]], value: SERVED[0] });
  }, limit(150_000));

  it('a schedule created with the form’s defaults runs and succeeds', async () => {
    await openScreen(page, 'Schedules', 'Schedules');
    const form = page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Message').fill('Say hello on schedule.');
    // A bad cron expression is a sentence under the field, not the parser's words.
    await form.getByLabel('Cron expression').check();
    await form.getByTestId('schedule-cron').fill('61 9 * * *');
    const cronError = form.getByTestId('field-error');
    await expect.poll(() => cronError.textContent()).toBe('Minute 61 does not exist: use 0 to 59.');
    expect(await form.getByTestId('schedule-cron').getAttribute('aria-describedby')).toContain(await cronError.getAttribute('id'));
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await shots('models-schedule-cron', '[data-testid="schedule-cron"]');
    await shots('models-schedule-form', 'form[aria-label="New schedule"] select[id$="-model"]');
    await form.getByLabel('Every N minutes').check();
    // Nothing else touched: the form's defaults.
    await form.getByRole('button', { name: 'Create schedule' }).click();
    await page.getByTestId('schedule').first().waitFor();
    const made = (await pageFetch(page, 'GET', '/api/schedules')).json.data[0];
    expect(made.answers.model).toBe(SERVED[1]);

    // Its run falls due (the app closed past its time): serve stops, the due time moves into the past, serve starts again.
    const dataDir = serve!.dataDir;
    await serve!.close({ keepData: true });
    serve = undefined;
    const db = new Database(path.join(dataDir, 'agent-desk.sqlite'));
    try {
      expect(db.prepare('UPDATE schedules SET next_run_at = ? WHERE id = ?').run((Date.now() - 60_000) * 1000, made.id).changes).toBe(1);
    } finally {
      db.close();
    }
    serve = await startServe(env, 45_000, dataDir);
    await signIn(serve);
    const runs = await until(
      'the schedule run to finish',
      async () => {
        const r = (await pageFetch(page, 'GET', `/api/schedules/${made.id}/runs`)).json?.data as any[] | undefined;
        return r?.length && (r[0].error || ['succeeded', 'failed'].includes(r[0].execution?.status)) ? r : null;
      },
      30_000,
      100,
    );
    expect(runs[0].error).toBeNull();
    expect(runs[0].execution).toMatchObject({ status: 'succeeded', output: REPLY });
    expect(local.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body.model).toBe(SERVED[1]);
  }, limit(150_000));

  it('adding a provider with an empty address says so under the field', async () => {
    await openProviders();
    const form = page.getByRole('form', { name: 'Add a provider' });
    await form.getByLabel('Name').fill('No address');
    await form.getByLabel('Base URL').fill('');
    await form.getByRole('button', { name: 'Add provider' }).click();
    const url = form.getByLabel('Base URL');
    await expect.poll(() => url.getAttribute('aria-invalid')).toBe('true');
    const sentence = page.locator(`#${(await url.getAttribute('aria-describedby'))!.replace(/:/g, '\\:')}`);
    expect(await sentence.textContent()).toBe("Type the server's address, e.g. http://localhost:1234/v1.");
    expect(await form.getByTestId('form-error').count()).toBe(0);
    expect((await pageFetch(page, 'GET', '/api/settings/providers')).json.providers.map((p: any) => p.label)).not.toContain('No address');
    expect(await seriousViolations(page)).toEqual([]);
    await shots('models-provider-empty-url', 'form[aria-label="Add a provider"] [data-testid="field-error"]');
    await form.getByLabel('Name').fill('');
    await url.fill('http://localhost:1234/v1');
  }, limit(90_000));

  it('edits a provider’s key in place: a wrong key reads plainly, the right one makes it reachable', async () => {
    await openProviders();
    const add = page.getByRole('form', { name: 'Add a provider' });
    await add.getByLabel('Name').fill('Keyed server');
    await add.getByLabel('Base URL').fill(keyed.url);
    await add.getByLabel('API key').fill('sk-old');
    await add.getByRole('button', { name: 'Add provider' }).click();
    const card = page.getByTestId('provider').filter({ hasText: 'Keyed server' });
    await expect.poll(() => card.getByTestId('provider-status').textContent(), { timeout: limit(15_000) }).toBe('Not reachable. The server refused the API key. Check the key, then try again.');
    await shots('models-provider-unreachable', '[data-testid="provider"]:has-text("Keyed server")');

    await card.getByRole('button', { name: 'Edit Keyed server' }).click();
    const edit = page.getByRole('form', { name: 'Edit Keyed server' });
    // A new address asks for the key again, and says why.
    await edit.getByLabel('Base URL').fill(`${keyed.url}/`);
    expect(await edit.getByTestId('key-again').textContent()).toBe('A saved key is only sent to the address it was entered for: type the key again for the new address.');
    expect(await edit.getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await shots('models-provider-edit', '[data-testid="key-again"]');
    await edit.getByLabel('Base URL').fill(keyed.url);
    expect(await edit.getByTestId('key-again').count()).toBe(0);
    expect(await edit.getByLabel('API key').getAttribute('placeholder')).toBe('Saved: leave empty to keep it');
    await edit.getByLabel('API key').fill('sk-new');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    await expect.poll(() => card.getByTestId('provider-status').textContent(), { timeout: limit(15_000) }).toBe('Reachable · 1 model');
    expect(await card.getByTestId('provider-models').locator('li').allTextContents()).toEqual(['keyed-model']);
    const saved = (await pageFetch(page, 'GET', '/api/settings/providers')).json.providers as any[];
    // Edited in place: the same entry, same place, the other provider untouched.
    expect(saved.map((p) => p.label)).toEqual([expect.stringMatching(/^Server at /), 'Keyed server']);
    expect(saved[1]).toMatchObject({ base_url: keyed.url, has_api_key: true, source: 'settings' });
    expect(keyed.requests.at(-1)!.headers.authorization).toBe('Bearer sk-new');
    // The chat picker follows: both providers' models, grouped.
    await openScreen(page, 'Chat', 'Chat');
    await expect.poll(() => offered('#q-model').then((o) => o.values), { timeout: limit(10_000) }).toEqual([...SERVED, 'keyed-model']);
    expect(problems.filter((p) => !/401|Failed to load resource/.test(p))).toEqual([]);
  }, limit(90_000));
});
