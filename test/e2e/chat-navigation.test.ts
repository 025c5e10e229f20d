/**
 * Leaving an open conversation for another screen and coming back through the sidebar, as a
 * person does: the chat must render (a loop between the URL and the open session once blanked it).
 */
import { describe, expect } from 'vitest';
import { chooseGptModel, lastTurnDone, sendMessage, startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { openScreen } from './support/page';
import { limit } from '../fixtures/until.js';

let env: ChatEnv;

describe('chat navigation', () => {
  const it = e2eSetup(async (own) => {
    env = own(await startChatEnv({ tokens: () => ['Hello ', 'there.'], delayMs: 1 }));
    await chooseGptModel(env.page);
  });

  it('an open conversation, Settings, then Chat from the sidebar: the chat renders and no page error occurs', async () => {
    const { page } = env;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await sendMessage(page, 'Hi');
    await lastTurnDone(page);
    await page.waitForFunction(() => /^#\/chat\/\d+$/.test(location.hash));
    await openScreen(page, 'Settings', 'Settings');
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: /^Chat/ }).click();
    await page.locator('#chat-input').waitFor({ timeout: limit(10_000) });
    expect(errors).toEqual([]);
  }, limit(60_000));
});
