/**
 * Keyboard and small things, in Chromium against `serve`: no console error from the first load
 * on (the CSP's eval probe included) nor on any screen; the skip link is the first Tab stop and
 * reaches the message box with Enter past eleven conversations; Esc on the citation viewer gives
 * focus back to the citation that opened it; toasts never cover the composer or its buttons at
 * 1280 and 1024. Screenshots of the skip link and the toasts at both sizes, both themes.
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseGptModel, lastTurnDone, sendMessage, startChatEnv, type ChatEnv } from './support/chat-env';
import { keyApi, linkTextFiles } from './support/key-api';
import { e2eSetup } from './support/suite';
import { openScreen } from './support/page';
import { shotSizesAndThemes } from './support/shots';
import { seriousViolationsInBothThemes } from './support/axe';
import { PERMIT_NOTES, PERMIT_QUESTION } from '../citations/permit-notes';
import { limit } from '../fixtures/until.js';

const KEY = 'e2e-keyboard-key-0123456789';
let env: ChatEnv;

const SCREENS: [label: string, heading: string][] = [
  ['Agents', 'Agents'],
  ['Files', 'Files'],
  ['Memories', 'Memories'],
  ['Webhooks', 'Webhooks'],
  ['Schedules', 'Schedules'],
  ['Usage', 'Usage'],
  ['Settings', 'Settings'],
  ['Developer', 'Developer'],
  ['Chat', 'Chat'],
];

const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return { tag: a?.tagName ?? '', id: a?.id ?? '', testid: a?.dataset.testid ?? '', text: a?.innerText?.trim() ?? '' };
  });

/** Focus at the top of the document, where a keyboard user starts (the chat's message box otherwise has it from the start). */
const focusTop = (page: Page) =>
  page.evaluate(() => {
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute('tabindex');
  });

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('keyboard, focus, toasts and the console', () => {
  const it = e2eSetup(async (own) => {
    env = own(
      await startChatEnv(
        // A table and code when asked for them (their icon buttons), else an answer citing passage [2].
        { tokens: (b: any) => (JSON.stringify(b.messages).includes('A table, please') ? ['| Day | Train |\n|---|---|\n| Mon | 08:10 |\n\n```js\nrun()\n```\n'] : ['The permit must be renewed before Friday ', '[2].']) },
        { env: { AGENT_DESK_API_KEY: KEY } },
      ),
    );
  });

  it('logs no console error from the first load on, nor on any screen', async () => {
    const { page } = env;
    // The chat was loaded by the setup with the problems recorded from the start: the CSP eval probe would be here.
    expect(env.problems).toEqual([]);
    for (const [label, heading] of SCREENS) {
      await openScreen(page, label, heading);
      await page.waitForLoadState('networkidle');
    }
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
    await page.waitForLoadState('networkidle');
    expect(env.problems).toEqual([]);
  }, limit(60_000));

  it('the skip link is the first Tab stop and reaches the message box in one Tab and Enter, past eleven conversations', async () => {
    const { page } = env;
    const api = keyApi(env.serve.url, KEY);
    for (let i = 1; i <= 11; i++) {
      await api('POST', '/api/agents/1/execute', { model: 'gpt-4o-mini', temperature: '0', tools: 'no-tools', messages: [{ role: 'user', content: `Conversation ${i}` }], wait_execution: true });
    }
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
    await expect.poll(() => page.locator('[data-testid="session"]').count(), { timeout: limit(10_000) }).toBeGreaterThanOrEqual(11);
    await focusTop(page);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'A', testid: 'skip-link', text: 'Skip to message box' });
    const link = await page.getByTestId('skip-link').boundingBox();
    expect(link!.y).toBeGreaterThanOrEqual(0); // in view once focused
    await shotSizesAndThemes(page, 'ui-skip-link');
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatchObject({ tag: 'TEXTAREA', id: 'chat-input' });
    expect(new URL(page.url()).hash).not.toBe('#chat-input');

    // Elsewhere it skips to the screen's heading.
    await openScreen(page, 'Memories', 'Memories');
    await focusTop(page);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ testid: 'skip-link', text: 'Skip to content' });
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatchObject({ tag: 'H1', text: 'Memories' });
    await openScreen(page, 'Chat', 'Chat');
  }, limit(90_000));

  it('Esc on the citation viewer gives focus back to the citation that opened it', async () => {
    const { page } = env;
    await linkTextFiles(keyApi(env.serve.url, KEY), PERMIT_NOTES);
    await chooseGptModel(page);
    await sendMessage(page, PERMIT_QUESTION);
    await lastTurnDone(page);
    const link = page.locator('[data-testid="answer"]').last().getByTestId('citation-link');
    await link.waitFor({ timeout: limit(15_000) });
    await link.focus();
    await page.keyboard.press('Enter');
    const viewer = page.getByTestId('file-viewer');
    await viewer.getByRole('heading', { level: 2, name: 'todo.txt', exact: true }).waitFor({ timeout: limit(10_000) });
    expect(await focused(page)).toMatchObject({ text: 'Close' });
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(await focused(page)).toMatchObject({ testid: 'citation-link' });
    // And with the Close button, the same.
    await page.keyboard.press('Enter');
    await viewer.getByRole('button', { name: 'Close' }).click();
    await viewer.waitFor({ state: 'detached' });
    expect(await focused(page)).toMatchObject({ testid: 'citation-link' });
    expect(env.problems).toEqual([]);
  }, limit(90_000));

  it('every icon button of an answer (the table and code copy buttons) has a name of its own, not only a tooltip', async () => {
    const { page } = env;
    await sendMessage(page, 'A table, please');
    await lastTurnDone(page);
    const turn = page.locator('[data-testid="turn"]').last();
    await turn.locator('table').waitFor({ timeout: limit(10_000) });
    const copyTable = turn.getByRole('button', { name: 'Copy table' });
    await copyTable.waitFor({ timeout: limit(10_000) });
    expect(await copyTable.getAttribute('aria-label')).toBe('Copy table');
    const unnamed = await turn.locator('button').evaluateAll((bs) => bs.filter((b) => !b.getAttribute('aria-label')?.trim() && !(b as HTMLElement).innerText.trim()).map((b) => b.outerHTML.slice(0, 120)));
    expect(unnamed).toEqual([]);
  }, limit(60_000));

  it('toasts never cover the message box or its buttons, at 1280 and 1024', async () => {
    const { page } = env;
    const copy = page.locator('[data-testid="turn"]').last().getByRole('button', { name: 'Copy answer' });
    for (const size of [
      { width: 1280, height: 800 },
      { width: 1024, height: 700 },
    ]) {
      await page.setViewportSize(size);
      // A full stack: the store keeps four at once.
      for (let i = 0; i < 4; i++) await copy.click();
      await expect.poll(() => page.locator('.toast').count()).toBe(4);
      const toasts = await page.locator('.toast').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as Box));
      const controls: Box[] = [];
      for (const target of [page.locator('#chat-input'), page.locator('.composer').getByRole('button', { name: /^Send/ }), page.locator('.composer').getByRole('button', { name: 'Attach' })]) {
        controls.push((await target.boundingBox())!);
      }
      for (const t of toasts) for (const c of controls) expect(overlaps(t, c), `toast ${JSON.stringify(t)} over ${JSON.stringify(c)} at ${size.width}`).toBe(false);
    }
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    await shotSizesAndThemes(page, 'ui-toasts-chat');
  }, limit(60_000));
});
