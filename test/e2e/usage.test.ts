/**
 * The Usage screen in Chromium against `serve`: first the empty state in plain words; then runs of
 * two agents on two models (against the fake provider), some moved to earlier days while serve is
 * stopped (a week of use, without waiting for one). The screen's totals, per-agent and per-model
 * tables, chart and per-day table must match the platform's report; the period choices change
 * them; both themes at 1280 and 1024 are screenshotted; axe finds nothing serious.
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
import { shotSizesAndThemes } from './support/shots';
import { e2eSetup, openPage } from './support/suite';
import { limit } from '../fixtures/until.js';

const DAY_US = 86_400_000_000;

let fake: FakeServer;
let serve: ServeProcess | undefined;
let page: Page;
const problems: string[] = [];

const cellsOf = (testId: string) =>
  page.getByTestId(testId).locator('tbody tr').evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('th, td')).map((c) => (c.textContent ?? '').trim())));

describe('Usage screen', () => {
  const it = e2eSetup(async (own) => {
    ensureRendererBuilt();
    fake = own(await startFakeOpenAI({ tokens: ['Planned', ' and', ' done.'] }));
    serve = await startServe(fakeProviderEnv(fake));
    own({ close: async () => serve?.close() });
    ({ page } = own(await openPage()));
    recordProblems(page, problems);
    await signInQuietly(page, serve.loginUrl, problems);
  });

  it('says in plain words that nothing was used yet', async () => {
    await openScreen(page, 'Usage', 'Usage');
    const empty = page.getByTestId('usage-empty');
    await empty.waitFor();
    expect(await empty.textContent()).toContain('No usage in the last 7 days.');
    expect(await page.getByTestId('usage-stats').count()).toBe(0);
    expect(await page.locator('svg.chart').count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Period' }).getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'usage-empty-1280-light');
    expect(problems).toEqual([]);
  }, limit(60_000));

  it('shows credits and tokens per day, per agent and per model, for the period chosen', async () => {
    const agents = (await pageFetch(page, 'GET', '/api/agents?type=chat&per_page=100')).json.data as any[];
    const chat = agents.find((x) => x.questions.some((q: any) => q.name === 'model'));
    const planner = (await pageFetch(page, 'POST', '/api/agents', { title: 'Trip planner', type: 'chat', questions: chat.questions })).json;
    expect(planner.id).toBeGreaterThan(0);
    const run = async (agentId: number, model: string, text: string): Promise<number> => {
      const r = await pageFetch(page, 'POST', `/api/agents/${agentId}/execute`, { model, temperature: '0.5', tools: 'no-tools', messages: [{ role: 'user', content: text }], wait_execution: true });
      expect(r.status).toBe(200);
      expect(r.json.responses[0].status).toBe('succeeded');
      return r.json.responses[0].id;
    };
    // Today: 2 runs; earlier this week: 3 more; 12 days ago: 1 (in 30 days, not in 7).
    const moved: [number, number][] = [];
    await run(chat.id, 'gpt-4o-mini', 'Plan my Monday.');
    await run(planner.id, 'gpt-5', 'A weekend in Lisbon?');
    moved.push([await run(chat.id, 'gpt-4o-mini', 'Summarise the meeting.'), 1]);
    moved.push([await run(planner.id, 'gpt-5', 'Trains from Paris to Rome.'), 3]);
    moved.push([await run(planner.id, 'gpt-4o-mini', 'Pack for rain.'), 3]);
    moved.push([await run(chat.id, 'gpt-5', 'An old question.'), 12]);

    // A week of use without waiting for one: serve stopped, start times moved back, serve again.
    const dataDir = serve!.dataDir;
    await serve!.close({ keepData: true });
    const db = new Database(path.join(dataDir, 'agent-desk.sqlite'));
    try {
      for (const [id, days] of moved) db.prepare('UPDATE executions SET created_at = created_at - ? WHERE id = ?').run(days * DAY_US, id);
    } finally {
      db.close();
    }
    serve = await startServe(fakeProviderEnv(fake), 45_000, dataDir);
    await signInQuietly(page, serve.loginUrl, problems);

    await openScreen(page, 'Usage', 'Usage');
    await page.getByTestId('usage-credits-chart').waitFor();
    const week = (await pageFetch(page, 'GET', '/api/workspaces/usage?range=7d&per_page=100')).json;
    expect(week.totals.executions).toBe(5);
    const credits = (n: number) => (n < 1 ? n.toFixed(4).replace(/0+$/, '').replace(/\.$/, '') : n.toFixed(2));
    expect(await page.getByTestId('usage-runs').textContent()).toBe('5');
    expect(await page.getByTestId('usage-credits').textContent()).toBe(credits(week.totals.credits));
    // How credits come about, in one sentence under the figures (the formula the platform bills by).
    const formula = (await pageFetch(page, 'GET', '/api/usage?days=7')).json.formula;
    expect(await page.getByTestId('usage-formula').textContent()).toContain(`an answer costs ${formula.executionBase} plus ${formula.per1kInputTokens} per 1,000 input tokens`);

    // Per agent and per model, most credits first: names and runs as created above.
    const byAgent = await cellsOf('usage-agents-table');
    expect(byAgent.map((r) => [r[0], r[1]]).sort()).toEqual([
      [chat.title, '2'],
      ['Trip planner', '3'],
    ]);
    const byModel = await cellsOf('usage-models-table');
    expect(byModel.map((r) => [r[0], r[1]]).sort()).toEqual([
      ['gpt-4o-mini', '3'],
      ['gpt-5', '2'],
    ]);
    const tokensIn = week.data.reduce((s: number, r: any) => s + r.tokens_in, 0);
    expect(byAgent.reduce((s, r) => s + Number(r[2].replace(/,/g, '')), 0)).toBe(tokensIn);
    expect(byModel.reduce((s, r) => s + Number(r[3].replace(/,/g, '')), 0)).toBe(15);

    // The chart: 7 days, bars on the 3 days that had runs; named for screen readers, its numbers in a table.
    const chart = page.getByRole('img', { name: /Credits per day/ });
    expect(await chart.getAttribute('aria-labelledby')).toBeTruthy();
    expect(await page.getByTestId('usage-credits-chart').locator('rect.bar').count()).toBe(3);
    await page.locator('summary', { hasText: 'Numbers per day' }).click();
    const days = await cellsOf('usage-days-table');
    expect(days).toHaveLength(7);
    expect(days.map((r) => r[1])).toEqual(['2', '1', '0', '2', '0', '0', '0']);

    expect(await seriousViolations(page)).toEqual([]);
    await page.locator('summary', { hasText: 'Numbers per day' }).click();
    await shotSizesAndThemes(page, 'usage');

    // 30 days takes in the run of 12 days ago; Today only today's; the choice is in the address.
    await page.getByRole('button', { name: '30 days' }).click();
    await expect.poll(() => page.getByTestId('usage-runs').textContent()).toBe('6');
    expect(await page.evaluate(() => location.hash)).toBe('#/usage/30d');
    expect(await page.getByRole('button', { name: '30 days' }).getAttribute('aria-pressed')).toBe('true');
    await shotSizesAndThemes(page, 'usage-30d');
    await page.getByRole('button', { name: 'Today' }).click();
    await expect.poll(() => page.getByTestId('usage-runs').textContent()).toBe('2');
    expect(await page.getByTestId('usage-credits-chart').locator('rect.bar').count()).toBe(1);
    expect(problems).toEqual([]);
    // A reload keeps the period (what a reload itself logs is the app shell's, checked elsewhere).
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    await expect.poll(() => page.getByTestId('usage-runs').textContent()).toBe('2');
    expect(await page.getByRole('button', { name: 'Today' }).getAttribute('aria-pressed')).toBe('true');
  }, limit(180_000));
});
