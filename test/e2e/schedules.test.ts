/**
 * The Schedules screen in Chromium against `serve`: a person creates an every-N-minutes schedule,
 * pauses and resumes it; then runs happen without waiting for the clock. serve is stopped, the
 * schedules' next run times are moved into the past in its database (what a closed laptop does),
 * and serve starts again on the same data dir: a start runs what is due, once. The runs list then
 * shows the execution (opened in Chat) and a run that could not start with its reason.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai';
import { ensureRendererBuilt } from './support/build';
import { fakeProviderEnv, startServe, type ServeProcess } from './support/server';
import { openScreen, pageFetch, recordProblems, shot, signInQuietly } from './support/page';
import { seriousViolations } from './support/axe';
import { e2eSetup, openPage } from './support/suite';
import { until } from '../fixtures/until';
import { limit } from '../fixtures/until.js';

let fake: FakeServer;
let serve: ServeProcess | undefined;
let page: Page;
const problems: string[] = [];

/** Waits (on a condition, polling the API) until every run of the schedule has settled. */
async function settledRuns(id: number, count: number): Promise<any[]> {
  return until(`the runs of schedule ${id} to settle`, async () => {
    const runs = (await pageFetch(page, 'GET', `/api/schedules/${id}/runs`)).json?.data as any[] | undefined;
    return runs && runs.length >= count && runs.every((r) => r.error || ['succeeded', 'failed', 'cancelled'].includes(r.execution?.status)) ? runs : null;
  }, 30_000, 100);
}

describe('Schedules screen', () => {
  const it = e2eSetup(async (own) => {
    ensureRendererBuilt();
    fake = own(await startFakeOpenAI({ reply: 'Scheduled status: all good.', delayMs: 1 }));
    serve = await startServe(fakeProviderEnv(fake));
    // A test stops serve and starts it again on the same data: close whichever one is running.
    own({ close: async () => serve?.close() });
    ({ page } = own(await openPage()));
    recordProblems(page, problems);
    await signInQuietly(page, serve.loginUrl, problems);
  });

  let chatAgent: { id: number; title: string };
  let createdId = 0;
  let brokenId = 0;

  it('creates an every-N-minutes schedule in the form, pauses and resumes it', async () => {
    const agents = (await pageFetch(page, 'GET', '/api/agents?type=chat&per_page=100')).json.data as any[];
    const a = agents.find((x) => x.questions.some((q: any) => q.name === 'model'));
    expect(a, 'a seeded chat agent with a model question').toBeTruthy();
    chatAgent = { id: a.id, title: a.title };

    await openScreen(page, 'Schedules', 'Schedules');
    await page.getByTestId('schedules-empty').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);

    const form = page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Agent').selectOption(String(chatAgent.id));
    await form.getByLabel('Name (optional)').fill('Hourly status');
    await form.getByLabel('Every N minutes').check();
    await form.getByLabel('Minutes between runs').fill('90');
    await expect.poll(() => page.getByTestId('schedule-preview').textContent()).toContain('Every 90 minutes');
    expect(await page.getByTestId('schedule-preview').textContent()).toContain('next run');
    // The time zone starts at the browser's own.
    const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(await form.getByLabel('Time zone').inputValue()).toBe(browserZone);
    await form.getByLabel('Message').fill('What is the status?');
    const models = await form.locator('select[id$="-model"] option').evaluateAll((os) => (os as HTMLOptionElement[]).map((o) => o.value));
    const model = models.find((m) => m === 'gpt-4o-mini') ?? models.find((m) => m.startsWith('gpt-'));
    expect(model, `a gpt-* model among ${models.join(', ')}`).toBeTruthy();
    await form.locator('select[id$="-model"]').selectOption(model!);

    // A cron expression shows in words, in its zone; a bad one says why and cannot be saved.
    await form.getByLabel('Cron expression').check();
    await form.getByLabel('Time zone').selectOption('Europe/Paris');
    await form.getByTestId('schedule-cron').fill('30 9 * * 1-5');
    await expect.poll(() => page.getByTestId('schedule-preview').textContent()).toContain('Weekdays at 09:30, Europe/Paris');
    await form.getByTestId('schedule-cron').fill('61 9 * * *');
    await expect.poll(() => form.getByRole('button', { name: 'Create schedule' }).isDisabled()).toBe(true);
    await shot(page, 'schedules-form-1280-light');
    await form.getByLabel('Every N minutes').check();

    await form.getByRole('button', { name: 'Create schedule' }).click();
    const card = page.getByTestId('schedule').filter({ hasText: 'Hourly status' });
    await card.waitFor();
    expect(await card.getByTestId('schedule-timing').textContent()).toContain('Every 90 minutes');
    expect(await card.getByTestId('schedule-state').textContent()).toBe('Active');
    expect(await card.getByTestId('schedule-last').textContent()).toBe('Never');

    const listed = (await pageFetch(page, 'GET', '/api/schedules')).json.data as any[];
    expect(listed).toHaveLength(1);
    createdId = listed[0].id;
    // The zone picked while trying the cron stays with the schedule.
    expect(listed[0]).toMatchObject({ agent_id: chatAgent.id, every_minutes: 90, cron: null, timezone: 'Europe/Paris', enabled: true, messages: [{ role: 'user', content: 'What is the status?' }] });
    expect(listed[0].answers.model).toBe(model);

    await card.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => card.getByTestId('schedule-state').textContent()).toBe('Paused');
    expect((await pageFetch(page, 'GET', `/api/schedules/${createdId}`)).json).toMatchObject({ enabled: false, next_run_at: null });
    await card.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => card.getByTestId('schedule-state').textContent()).toBe('Active');
    expect((await pageFetch(page, 'GET', `/api/schedules/${createdId}`)).json.enabled).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  }, limit(120_000));

  it('a restart runs the due schedules once: the runs list shows the execution, opened in Chat, and a run that could not start', async () => {
    // A schedule for the chat agent with no message: its run cannot start, and says why.
    const broken = await pageFetch(page, 'POST', '/api/schedules', { agent_id: chatAgent.id, name: 'Missing message', every_minutes: 30, answers: { model: 'gpt-4o-mini', temperature: '0.5', tools: 'no-tools' } });
    expect(broken.status).toBe(201);
    brokenId = broken.json.id;

    // The app is closed past both due times: stop serve, move the due times into the past, start again.
    const dataDir = serve!.dataDir;
    await serve!.close({ keepData: true });
    serve = undefined;
    const db = new Database(path.join(dataDir, 'agent-desk.sqlite'));
    try {
      const past = (Date.now() - 5 * 60_000) * 1000;
      const moved = db.prepare('UPDATE schedules SET next_run_at = ? WHERE id IN (?, ?)').run(past, createdId, brokenId);
      expect(moved.changes).toBe(2);
    } finally {
      db.close();
    }
    serve = await startServe(fakeProviderEnv(fake), 45_000, dataDir);
    await signInQuietly(page, serve.loginUrl, problems);

    const runs = await settledRuns(createdId, 1);
    expect(runs).toHaveLength(1);
    expect(runs[0].execution).toMatchObject({ status: 'succeeded', output: 'Scheduled status: all good.' });
    const brokenRuns = await settledRuns(brokenId, 1);
    expect(brokenRuns).toHaveLength(1);
    expect(brokenRuns[0].error).toBeTruthy();

    await openScreen(page, 'Schedules', 'Schedules');
    const card = page.getByTestId('schedule').filter({ hasText: 'Hourly status' });
    await card.waitFor();
    expect(await card.getByTestId('schedule-last').textContent()).not.toBe('Never');
    await card.getByRole('button', { name: 'Past runs' }).click();
    const row = card.getByTestId('schedule-run');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.getByTestId('run-status').textContent()).toBe('Succeeded');

    const brokenCard = page.getByTestId('schedule').filter({ hasText: 'Missing message' });
    await brokenCard.getByRole('button', { name: 'Past runs' }).click();
    await brokenCard.getByTestId('run-error').waitFor();
    expect(await brokenCard.getByTestId('run-status').textContent()).toBe('Could not start');
    expect((await brokenCard.getByTestId('run-error').textContent())!.length).toBeGreaterThan(5);
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);

    // Screens in both themes and both sizes, runs open.
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const [w, h] of [
        [1280, 800],
        [1024, 700],
      ] as const) {
        await page.setViewportSize({ width: w, height: h });
        await card.scrollIntoViewIfNeeded();
        const sideways = await page.evaluate(() => Math.max(document.documentElement.scrollWidth - document.documentElement.clientWidth, ...[...document.querySelectorAll('.main, .screen')].map((e) => e.scrollWidth - e.clientWidth)));
        expect(sideways, `no sideways scroll at ${w}x${h} ${theme}`).toBeLessThanOrEqual(0);
        await shot(page, `schedules-runs-${w}-${theme}`);
      }
      expect(await seriousViolations(page)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The run's link opens its conversation in Chat.
    await row.getByRole('link', { name: /Open conversation/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
    expect(page.url()).toContain(`#/chat/${runs[0].execution.root_id}`);
    await page.locator('[data-testid="turn"]').filter({ hasText: 'Scheduled status: all good.' }).first().waitFor({ timeout: limit(15_000) });
    await page.locator('[data-testid="turn"]').filter({ hasText: 'What is the status?' }).first().waitFor();
  }, limit(180_000));

  it('edits a schedule and deletes one with the app’s own confirm', async () => {
    await openScreen(page, 'Schedules', 'Schedules');
    const card = page.getByTestId('schedule').filter({ hasText: 'Hourly status' });
    await card.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit schedule' });
    await form.getByLabel('Minutes between runs').fill('45');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('schedule').filter({ hasText: 'Hourly status' }).getByTestId('schedule-timing').textContent()).toContain('Every 45 minutes');
    expect((await pageFetch(page, 'GET', `/api/schedules/${createdId}`)).json).toMatchObject({ every_minutes: 45, messages: [{ role: 'user', content: 'What is the status?' }] });

    const brokenCard = page.getByTestId('schedule').filter({ hasText: 'Missing message' });
    await brokenCard.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this schedule?' });
    await dialog.waitFor();
    await shot(page, 'schedules-delete-confirm-1280-light');
    await dialog.getByRole('button', { name: 'Delete schedule' }).click();
    await expect.poll(() => page.getByTestId('schedule').count()).toBe(1);
    expect(problems).toEqual([]);
    expect((await pageFetch(page, 'GET', `/api/schedules/${brokenId}`)).status).toBe(404);
  }, limit(120_000));
});
