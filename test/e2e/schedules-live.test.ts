/**
 * A schedule card follows its runs while the Schedules screen is open, in Chromium against
 * `serve`: with the screen open and never reloaded, a run starts (a schedule set to fire every
 * second, set back once the run is recorded), the card says it runs while the fake provider holds
 * the answer, then shows the run's time and "Succeeded" once it is let go. The page's clock
 * (Playwright's) is moved forward instead of waiting for the screen's polls.
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai';
import { tokenGate } from '../fixtures/token-gate';
import { until } from '../fixtures/until';
import { ensureRendererBuilt } from './support/build';
import { startServe, type ServeProcess } from './support/server';
import { openScreen, pageFetch } from './support/page';
import { e2eSetup, openPage } from './support/suite';
import { shotSizesAndThemes } from './support/shots';
import { seriousViolations } from './support/axe';
import { limit } from '../fixtures/until.js';

let fake: FakeServer;
let serve: ServeProcess;
let page: Page;
const gate = tokenGate();
const problems: string[] = [];

/** A time as the card writes it (the user's locale, date and minutes). */
const shownAt = (iso: string) => page.evaluate((s) => new Date(s).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }), iso);

async function runs(id: number): Promise<any[]> {
  return (await pageFetch(page, 'GET', `/api/schedules/${id}/runs`)).json.data;
}

describe('Schedules screen, live', () => {
  const it = e2eSetup(async (own) => {
    ensureRendererBuilt();
    fake = own(await startFakeOpenAI({ reply: 'All systems normal.', gate: (i) => gate.gate(i) }));
    serve = own(await startServe({ AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_OLLAMA_AUTODETECT: '0' }));
    ({ page } = own(await openPage()));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    // The page's timers are Playwright's: the test moves them forward rather than waiting for them.
    await page.clock.install();
    await page.goto(serve.loginUrl);
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
  });

  it('a card shows "Last run" running, then with the run’s time and outcome, without a reload', async () => {
    const agents = (await pageFetch(page, 'GET', '/api/agents?type=chat&per_page=100')).json.data as any[];
    const chat = agents.find((a) => a.slug === 'chat');
    const made = await pageFetch(page, 'POST', '/api/schedules', {
      agent_id: chat.id,
      name: 'Status check',
      every_minutes: 60,
      answers: { model: 'gpt-4o-mini', temperature: '0.5', tools: 'no-tools' },
      messages: [{ role: 'user', content: 'Status?' }],
    });
    expect(made.status).toBe(201);
    const id = made.json.id as number;

    await openScreen(page, 'Schedules', 'Schedules');
    const card = page.getByTestId('schedule').filter({ hasText: 'Status check' });
    const last = card.getByTestId('schedule-last');
    await card.waitFor();
    expect(await last.innerText()).toBe('Never');
    // Whatever happens next, the page is not loaded again.
    let loads = 0;
    page.on('load', () => loads++);

    // A run, now: every second until one is recorded, then back to hourly. The provider holds its answer.
    expect((await pageFetch(page, 'PATCH', `/api/schedules/${id}`, { cron: '* * * * * *' })).status).toBe(200);
    await until('a run recorded', async () => (await runs(id)).length > 0);
    expect((await pageFetch(page, 'PATCH', `/api/schedules/${id}`, { every_minutes: 60 })).status).toBe(200);

    await until('the card to say the run is under way', async () => {
      await page.clock.fastForward(31_000);
      return (await last.getAttribute('data-state')) === 'busy' && (await card.getByTestId('schedule-last-outcome').count()) > 0;
    }, 30_000);
    expect(await card.getByTestId('schedule-last-outcome').innerText()).toMatch(/^(Starting|Running)$/);
    await shotSizesAndThemes(page, 'schedules-live-running');

    gate.allow(Infinity);
    const settled = await until('the runs to settle', async () => {
      const all = await runs(id);
      return all.every((r) => r.execution?.status === 'succeeded') ? all : null;
    });
    const latest = settled[0];
    const expected = `${await shownAt(latest.execution.created_at)} Succeeded`;
    await until(`the card to show "${expected}"`, async () => {
      await page.clock.fastForward(3_000);
      return (await last.innerText()).replace(/\s+/g, ' ').trim() === expected;
    }, 30_000);
    expect(await last.getAttribute('data-state')).toBe('ok');
    expect(loads).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await shotSizesAndThemes(page, 'schedules-live');
    expect(problems).toEqual([]);
  }, limit(120_000));
});
