/**
 * Answers that outlive what the person does meanwhile, in Chromium against `serve`, with a fake
 * provider that writes each token only when the test lets it (never on a timer): a reload
 * mid-answer shows the whole answer without another reload; New chat and other sessions stay
 * usable while an answer is written, and going back re-attaches to it; a reopened conversation
 * shows the model it ran with; Stop shows a neutral "Stopped" with the text so far.
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseGptModel, lastTurnDone, sendMessage, startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { tokenGate, TOKENS, upTo, WHOLE } from '../fixtures/token-gate';
import { limit } from '../fixtures/until.js';

let env: ChatEnv;
const gate = tokenGate();

const turns = () => env.page.locator('[data-testid="turn"]');
const lastTurn = () => turns().last();
const answerText = async (page: Page) => (await page.locator('[data-testid="turn"]').last().getByTestId('answer').locator('.md').innerText()).trim();
const session = () => env.page.evaluate(() => location.hash);
const sessionItem = (hash: string) => env.page.locator(`[data-testid="session"][data-session-id="${hash.split('/').pop()}"]`);

/** Sends a message and waits until the answer shows its first `n` tokens (the fake holds the rest). */
async function sendHeld(page: Page, text: string, n: number) {
  gate.reset();
  gate.allow(n);
  await sendMessage(page, text);
  await expect.poll(() => answerText(page).catch(() => ''), { timeout: limit(15_000) }).toBe(upTo(n));
}

describe('answers that outlive a reload, a switch and a stop', () => {
  const it = e2eSetup(async (own) => {
    env = own(await startChatEnv({ tokens: TOKENS, gate: (i) => gate.gate(i), models: ['gpt-4o-mini', 'gpt-5'] }));
    await chooseGptModel(env.page);
  });

  it('a reload mid-answer shows the text so far and then the whole answer, without another reload', async () => {
    const { page } = env;
    await sendHeld(page, 'Count for me', 3);
    expect(await lastTurn().getByTestId('turn-status').innerText()).toBe('Writing…');
    await page.reload();
    await expect.poll(() => answerText(page).catch(() => ''), { timeout: limit(15_000) }).toBe(upTo(3));
    expect(await lastTurn().getByTestId('turn-status').innerText()).toBe('Writing…');
    gate.allow(TOKENS.length);
    await lastTurnDone(page);
    expect(await answerText(page)).toBe(WHOLE);
    expect(await turns().count()).toBe(1);
  }, limit(60_000));

  it('New chat and another session stay usable while an answer is written; going back re-attaches to it', async () => {
    const { page } = env;
    const first = await session();
    await page.getByRole('button', { name: 'New chat' }).click();
    await expect.poll(() => session()).toBe('#/chat');
    await sendHeld(page, 'A second conversation', 2);
    await page.waitForFunction(() => /^#\/chat\/\d+$/.test(location.hash));
    const second = await session();
    // While it is written: New chat and the other session are enabled and open.
    expect(await page.getByRole('button', { name: 'New chat' }).isEnabled()).toBe(true);
    await sessionItem(first).locator('.session-open').click();
    await expect.poll(() => session()).toBe(first);
    await expect.poll(() => answerText(page).catch(() => ''), { timeout: limit(15_000) }).toBe(WHOLE);
    // The list says the other one is still being written.
    await sessionItem(second).getByTestId('session-writing').waitFor({ timeout: limit(15_000) });
    await page.getByRole('button', { name: 'New chat' }).click();
    await expect.poll(() => turns().count()).toBe(0);
    // Back in the second conversation: the text so far, then the rest as it comes.
    await sessionItem(second).locator('.session-open').click();
    await expect.poll(() => answerText(page).catch(() => ''), { timeout: limit(15_000) }).toBe(upTo(2));
    gate.allow(TOKENS.length);
    await lastTurnDone(page);
    expect(await answerText(page)).toBe(WHOLE);
    await expect.poll(() => sessionItem(second).getByTestId('session-writing').count(), { timeout: limit(15_000) }).toBe(0);
  }, limit(90_000));

  it('a reopened conversation continues with the model it ran with', async () => {
    const { page } = env;
    gate.allow(TOKENS.length);
    const conversation = async (model: string, text: string) => {
      await page.getByRole('button', { name: 'New chat' }).click();
      await expect.poll(() => turns().count()).toBe(0);
      await page.selectOption('#q-model', model);
      await sendMessage(page, text);
      await lastTurnDone(page);
      await page.waitForFunction(() => /^#\/chat\/\d+$/.test(location.hash));
      return session();
    };
    const withMini = await conversation('gpt-4o-mini', 'On the small model');
    expect(await lastTurn().getByTestId('turn-model').innerText()).toBe('gpt-4o-mini');
    const withFive = await conversation('gpt-5', 'On the bigger model');
    expect(await lastTurn().getByTestId('turn-model').innerText()).toBe('gpt-5');

    await sessionItem(withMini).locator('.session-open').click();
    await expect.poll(() => turns().count(), { timeout: limit(15_000) }).toBe(1);
    await expect.poll(() => page.locator('#q-model').inputValue()).toBe('gpt-4o-mini');
    await sessionItem(withFive).locator('.session-open').click();
    await expect.poll(() => page.locator('#q-model').inputValue()).toBe('gpt-5');
    // Also after a reload, from what the platform stored.
    await page.reload();
    await expect.poll(() => turns().count(), { timeout: limit(15_000) }).toBe(1);
    await expect.poll(() => page.locator('#q-model').inputValue()).toBe('gpt-5');
    await sessionItem(withMini).locator('.session-open').click();
    await expect.poll(() => page.locator('#q-model').inputValue()).toBe('gpt-4o-mini');
    // And the next turn there runs on it.
    await sendMessage(page, 'and again');
    await lastTurnDone(page);
    expect(await lastTurn().getByTestId('turn-model').innerText()).toBe('gpt-4o-mini');
  }, limit(90_000));

  it('Stop shows a neutral "Stopped" with the text so far, also after a reload', async () => {
    const { page } = env;
    await page.getByRole('button', { name: 'New chat' }).click();
    await sendHeld(page, 'Start and stop', 4);
    await page.getByTestId('stop').click();
    await lastTurnDone(page, 'Stopped');
    expect(await answerText(page)).toBe(upTo(4));
    expect(await lastTurn().getByTestId('turn-error').count()).toBe(0);
    expect(await lastTurn().getByRole('alert').count()).toBe(0);
    await page.reload();
    await lastTurnDone(page, 'Stopped');
    expect(await answerText(page)).toBe(upTo(4));
    expect(await lastTurn().getByTestId('turn-error').count()).toBe(0);
    gate.allow(TOKENS.length);
    expect(env.problems.filter((p) => /agent-responses|sessions/.test(p))).toEqual([]);
  }, limit(60_000));
});
