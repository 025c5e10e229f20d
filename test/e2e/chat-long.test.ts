/**
 * Long conversations in Chromium against `serve` with a fake provider on loopback. At the end of a
 * 60-turn chat the last answer's actions are whole, above the composer, and nothing covers them
 * (not "Jump to latest"), at 1280x800 and 1024x700. A 500-turn chat draws only a window of its
 * turns, yet find reaches a word in turn 3, and the place read is kept when leaving the screen.
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { arrangeSession, chooseGptModel, newChat, startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { currentFindMatch, openScreen } from './support/page';
import { shotSizesAndThemes } from './support/shots';
import { seriousViolationsInBothThemes } from './support/axe';
import { limit } from '../fixtures/until.js';

let env: ChatEnv;

/** Answers of different lengths and shapes (a paragraph, a list, some code), so turns differ in height. */
function answer(question: string): string[] {
  const n = Number(/(\d+)/.exec(question)?.[1] ?? 0);
  const lines = Array.from({ length: 1 + (n % 5) }, (_, i) => `- point ${i + 1} about item ${n}, said in a few more words`);
  return [`About ${question}: a short paragraph that explains it.\n\n`, `${lines.join('\n')}\n\n`, n % 3 === 0 ? '```js\nconst total = items.reduce((a, b) => a + b, 0);\n```\n\n' : '', `That is all for item ${n}.`];
}

/**
 * Each action of the last answer (Copy answer, Read aloud, Sources used, Regenerate): its box, whether
 * it lies whole inside the conversation's visible area and above the composer, and whether the
 * page at its centre and corners is the button itself (nothing drawn over it).
 */
function lastActions(page: Page) {
  return page.evaluate(() => {
    const list = document.querySelector('[data-testid="turns"]')!;
    const rows = [...list.querySelectorAll<HTMLElement>('[data-turn-index]')];
    const last = rows.sort((a, b) => Number(b.dataset.turnIndex) - Number(a.dataset.turnIndex))[0];
    const view = list.getBoundingClientRect();
    const composer = document.querySelector('.composer')!.getBoundingClientRect();
    const jump = document.querySelector('[data-testid="jump-latest"]')?.getBoundingClientRect() ?? null;
    const buttons = [...last.querySelectorAll<HTMLElement>('.turn-meta button')];
    return {
      index: Number(last.dataset.turnIndex),
      actions: buttons.map((b) => {
        const r = b.getBoundingClientRect();
        // Its middle and the middle of each edge, just inside (the corners are rounded off).
        const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
        const points = [
          [x, y],
          [r.left + 3, y],
          [r.right - 3, y],
          [x, r.top + 2],
          [x, r.bottom - 2],
        ];
        const overlaps = (o: DOMRect | null) => !!o && o.left < r.right && o.right > r.left && o.top < r.bottom && o.bottom > r.top;
        return {
          name: b.textContent,
          inView: r.top >= view.top && r.bottom <= view.bottom && r.height > 0,
          aboveComposer: r.bottom <= composer.top,
          uncovered: points.every(([x, y]) => b.contains(document.elementFromPoint(x, y))),
          underJump: overlaps(jump),
        };
      }),
    };
  });
}

const clear = (name: string | null) => ({ name, inView: true, aboveComposer: true, uncovered: true, underJump: false });

/** Waits until the last answer's actions are all whole and uncovered (layout settles as answers draw). */
async function expectLastActionsClear(page: Page, lastIndex: number): Promise<void> {
  await expect
    .poll(() => lastActions(page), { timeout: limit(15_000) })
    .toEqual({ index: lastIndex, actions: ['Copy answer', 'Read aloud', 'Sources used', 'Regenerate'].map(clear) });
}

/** The drawn turn at the top of the conversation's view, and how far its top is above the view's. */
function topOfView(page: Page) {
  return page.evaluate(() => {
    const list = document.querySelector('[data-testid="turns"]')!;
    const top = list.getBoundingClientRect().top;
    const row = [...list.querySelectorAll<HTMLElement>('[data-turn-index]')].find((r) => r.getBoundingClientRect().bottom > top)!;
    return { turn: Number(row.dataset.turnIndex), offset: Math.round(top - row.getBoundingClientRect().top) };
  });
}

describe('long conversations', () => {
  const it = e2eSetup(async (own) => {
    env = own(await startChatEnv({ tokens: (b) => answer(String(b.messages.at(-1)?.content ?? '')), delayMs: 0 }));
    await chooseGptModel(env.page);
  });

  it("a 60-turn chat at its end shows the last answer's actions whole above the composer, covered by nothing (not Jump to latest), at 1280x800 and 1024x700", async () => {
    const { page } = env;
    await newChat(page);
    const chat = await arrangeSession(
      page,
      Array.from({ length: 60 }, (_, i) => `Question ${i + 1}: tell me about item ${i + 1}`),
    );
    for (const size of [
      { width: 1280, height: 800 },
      { width: 1024, height: 700 },
    ]) {
      await page.setViewportSize(size);
      // Opened from a fresh page by its link: it opens at its end.
      await page.goto(`${env.serve.url}/#/chat/${chat.id}`);
      await page.reload();
      await page.locator('[data-turn-index="59"] [data-testid="turn-status"]', { hasText: 'Done' }).waitFor({ timeout: limit(20_000) });
      await expectLastActionsClear(page, 59);
      expect(await page.getByTestId('jump-latest').count()).toBe(0);
      // Read higher up with the wheel: Jump to latest appears, and brings the end back uncovered.
      const list = page.getByTestId('turns');
      await list.hover();
      await page.mouse.wheel(0, -1500);
      await page.getByTestId('jump-latest').waitFor({ timeout: limit(5_000) });
      await page.getByTestId('jump-latest').click();
      await page.getByTestId('jump-latest').waitFor({ state: 'detached', timeout: limit(5_000) });
      await expectLastActionsClear(page, 59);
      // Far up, then back down to the end with the wheel, as a person does.
      await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight / 3 }));
      await page.getByTestId('jump-latest').waitFor({ timeout: limit(5_000) });
      await expect
        .poll(
          async () => {
            await list.hover();
            await page.mouse.wheel(0, 2000);
            return page.getByTestId('jump-latest').count();
          },
          { timeout: limit(20_000) },
        )
        .toBe(0);
      await expectLastActionsClear(page, 59);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await shotSizesAndThemes(page, 'chat-long-end');
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    // Mid-scroll: Jump to latest under the conversation, the turns in view drawn.
    await page.getByTestId('turns').evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
    await page.getByTestId('jump-latest').waitFor({ timeout: limit(5_000) });
    await shotSizesAndThemes(page, 'chat-long-middle');
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
  }, limit(300_000));

  it('a 500-turn chat draws only a window of its turns, yet find reaches a word in turn 3; the place read is kept when leaving for Files and coming back', async () => {
    const { page } = env;
    await newChat(page);
    const messages = Array.from({ length: 500 }, (_, i) => (i === 2 ? 'Question 3: bring the quince marmalade to the picnic' : `Question ${i + 1}: tell me about item ${i + 1}`));
    const chat = await arrangeSession(page, messages);
    await page.goto(`${env.serve.url}/#/chat/${chat.id}`);
    await page.reload();
    await page.locator('[data-turn-index="499"] [data-testid="turn-status"]', { hasText: 'Done' }).waitFor({ timeout: limit(30_000) });
    const drawn = () => page.locator('[data-testid="turn"]').count();
    // A window: the turns near the end, not 500.
    expect(await drawn()).toBeGreaterThan(0);
    expect(await drawn()).toBeLessThan(30);
    expect(await page.locator('[data-turn-index="2"]').count()).toBe(0);
    // Find, from the keyboard: the word lives in turn 3 only (its message and the answer repeating it).
    await page.locator('#chat-input').click();
    await page.keyboard.press('Control+f');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: limit(5_000) }).toBe('find-input');
    await page.keyboard.type('Quince');
    const count = page.getByTestId('find-count');
    await expect.poll(() => count.innerText(), { timeout: limit(10_000) }).toBe('1 of 2');
    const current = () => currentFindMatch(page);
    await expect.poll(current, { timeout: limit(15_000) }).toMatchObject({ turn: 2, text: 'quince', inView: true });
    await page.keyboard.press('Enter');
    await expect.poll(() => count.innerText(), { timeout: limit(5_000) }).toBe('2 of 2');
    await expect.poll(current, { timeout: limit(10_000) }).toMatchObject({ turn: 2, text: 'quince', inView: true });
    // Still a window, now near turn 3.
    expect(await drawn()).toBeLessThan(30);
    expect(await page.locator('[data-turn-index="499"]').count()).toBe(1);
    expect(await page.locator('[data-turn-index="250"]').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByTestId('find-bar').waitFor({ state: 'detached', timeout: limit(5_000) });
    // Somewhere in the middle, read; Files; back to Chat: the same lines.
    await page.getByTestId('turns').evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
    await page.getByTestId('jump-latest').waitFor({ timeout: limit(5_000) });
    await page.mouse.wheel(0, 120);
    await expect.poll(async () => (await topOfView(page)).turn, { timeout: limit(5_000) }).toBeGreaterThan(100);
    const place = await topOfView(page);
    await openScreen(page, 'Files', 'Files');
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: /^Chat/ }).click();
    await page.locator(`[data-turn-index="${place.turn}"]`).waitFor({ timeout: limit(15_000) });
    await expect.poll(() => topOfView(page), { timeout: limit(10_000) }).toEqual(place);
    expect(await drawn()).toBeLessThan(30);
  }, limit(600_000));
});
