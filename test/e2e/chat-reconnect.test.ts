/**
 * Browser mode, `npm run serve` stopped and started again on the same data dir and port under an
 * open page: one banner while it is gone (the window, the screen and the draft kept, never a blank
 * window), the banner clears itself once it is back, and the page is still signed in (the session
 * outlives the restart) and keeps working: a message is answered. When the server no longer knows the
 * page's session (here its sessions file removed), the page says how to sign in again instead of
 * a blank window, and the new login link brings the app back with the draft.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { chooseGptModel, lastTurnDone, newChat, sendMessage, startChatEnv, type ChatEnv } from './support/chat-env';
import { startServe, fakeProviderEnv, type ServeProcess } from './support/server';
import { e2eSetup } from './support/suite';
import { limit } from '../fixtures/until.js';

let env: ChatEnv;
/** The serve running now (the first is env's; each restart replaces it). */
let serve: ServeProcess;

/** Stops the running serve (its data dir kept) and starts it again on the same data dir and port. */
async function stopServe(): Promise<{ port: number; dataDir: string }> {
  const port = Number(new URL(serve.url).port);
  await serve.close({ keepData: true });
  return { port, dataDir: serve.dataDir };
}

async function startAgain(at: { port: number; dataDir: string }): Promise<void> {
  serve = await startServe(fakeProviderEnv(env.fake), 45_000, at.dataDir, at.port);
}

describe('browser mode: serve restarted under an open page', () => {
  const it = e2eSetup(async (own) => {
    env = own(await startChatEnv({ reply: 'Back and answering.' }));
    serve = env.serve;
    // Whichever serve runs last is stopped before the env's own close (which removes the data dir).
    own({ close: () => (serve === env.serve ? Promise.resolve() : serve.close({ keepData: true })) });
    await chooseGptModel(env.page);
  });

  it('the banner comes and clears itself, the page stays signed in and keeps working; without its session it says how to sign in again', async () => {
    const { page } = env;
    const nav = page.getByRole('navigation', { name: 'Screens' });
    const banner = page.getByTestId('engine-banner');
    await newChat(page);
    await sendMessage(page, 'Before the restart');
    await lastTurnDone(page);
    const box = page.locator('#chat-input');
    await box.click();
    await page.keyboard.type('Half a thought');

    const at = await stopServe();
    // A screen whose code was never loaded, with the server gone: the banner, not a blank window.
    await nav.getByRole('link', { name: /^Files/ }).click();
    await banner.waitFor({ timeout: limit(15_000) });
    expect(await banner.innerText()).toBe('Agent Desk is not answering. Your work here is kept; this clears itself once it is back.');
    expect(await nav.isVisible()).toBe(true);
    expect(await page.locator('body').innerText()).not.toContain('Unable to preload');

    await startAgain(at);
    await page.getByRole('heading', { level: 1, name: 'Files' }).waitFor({ timeout: limit(30_000) });
    await banner.waitFor({ state: 'detached', timeout: limit(15_000) });
    expect(await page.getByRole('heading', { level: 1, name: 'Signed out' }).count()).toBe(0);
    await nav.getByRole('link', { name: /^Chat/ }).click();
    await expect.poll(() => box.inputValue(), { timeout: limit(10_000) }).toBe('Half a thought');
    // Still signed in after the restart: a message is answered.
    await box.fill('');
    await sendMessage(page, 'After the restart');
    await lastTurnDone(page);
    expect(await page.locator('[data-testid="turn"]').last().innerText()).toContain('Back and answering.');

    // A server that no longer knows this page's session: the page says how to sign in again.
    await box.click();
    await page.keyboard.type('Kept through signing in');
    const chat = Number((await page.evaluate(() => location.hash)).replace('#/chat/', ''));
    expect(chat).toBeGreaterThan(0);
    const again = await stopServe();
    fs.rmSync(path.join(again.dataDir, 'browser-sessions.json'), { force: true });
    await nav.getByRole('link', { name: /^Memories/ }).click();
    await banner.waitFor({ timeout: limit(15_000) });
    await startAgain(again);
    await page.getByRole('heading', { level: 1, name: 'Signed out' }).waitFor({ timeout: limit(30_000) });
    await banner.waitFor({ state: 'detached', timeout: limit(15_000) });
    expect(await page.locator('body').innerText()).toContain('npm run serve');
    await page.goto(serve.loginUrl);
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
    // The link opens the app at its start; the conversation, from the list, still holds its draft.
    await page.locator(`[data-session-id="${chat}"] .session-open`).click();
    await expect.poll(() => box.inputValue(), { timeout: limit(10_000) }).toBe('Kept through signing in');
    await box.fill('');
    await sendMessage(page, 'Signed in again');
    await lastTurnDone(page);
  }, limit(240_000));
});
