/**
 * A chat people live in every day, as a person uses it in Chromium against `serve` with a fake
 * provider on loopback: the history stays readable when the provider stops (a notice with Retry
 * and Settings above the composer, never the first-run screen); a draft and the open conversation
 * are kept when leaving for another screen and across a reload; a conversation whose agent was
 * deleted says so and goes on with another agent, its history kept.
 */
import { describe, expect } from 'vitest';
import { arrangeSession, chooseGptModel, lastTurnDone, newChat, startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { currentFindMatch, openScreen, pageFetch } from './support/page';
import { limit } from '../fixtures/until.js';
import { shotSizesAndThemes } from './support/shots';
import { seriousViolationsInBothThemes } from './support/axe';

/** Screenshots at 1280 and 1024 in both themes, and no serious or critical axe violation in either theme. */
async function looked(base: string): Promise<void> {
  await shotSizesAndThemes(env.page, base);
  expect(await seriousViolationsInBothThemes(env.page)).toEqual({});
}

let env: ChatEnv;

const turns = () => env.page.locator('[data-testid="turn"]');
/** The person's message of turn `i`, with `text`. */
const said = (i: number, text: string) => turns().nth(i).getByTestId('user-message').getByText(text);
const sidebarChat = () => env.page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: /^Chat/ });

describe('a chat people live in every day', () => {
  const it = e2eSetup(async (own) => {
    env = own(await startChatEnv({ tokens: (b) => ['You said: ', String(b.messages.at(-1)?.content ?? '')], delayMs: 1 }));
    await chooseGptModel(env.page);
  });

  it('a draft and the open conversation are kept when leaving for Files and coming back, and across a reload', async () => {
    const { page } = env;
    await newChat(page);
    const a = await arrangeSession(page, ['Plan the garden']);
    const b = await arrangeSession(page, ['Plan the kitchen']);
    // Open B from the list, as a person does, and start a draft there.
    await page.reload();
    await page.locator(`[data-session-id="${b.id}"] .session-open`).click();
    await page.waitForFunction((id) => location.hash === `#/chat/${id}`, b.id);
    await said(0, 'Plan the kitchen').waitFor({ timeout: limit(10_000) });
    const box = page.locator('#chat-input');
    await box.click();
    await page.keyboard.type('Add a pantry shelf');
    // Another conversation has its own (empty) draft.
    await page.locator(`[data-session-id="${a.id}"] .session-open`).click();
    await said(0, 'Plan the garden').waitFor({ timeout: limit(10_000) });
    expect(await box.inputValue()).toBe('');
    await page.locator(`[data-session-id="${b.id}"] .session-open`).click();
    await said(0, 'Plan the kitchen').waitFor({ timeout: limit(10_000) });
    expect(await box.inputValue()).toBe('Add a pantry shelf');
    // Files, then Chat from the sidebar: B is open with its draft.
    await openScreen(page, 'Files', 'Files');
    await sidebarChat().click();
    await said(0, 'Plan the kitchen').waitFor({ timeout: limit(10_000) });
    expect(await page.evaluate(() => location.hash)).toBe(`#/chat/${b.id}`);
    expect(await box.inputValue()).toBe('Add a pantry shelf');
    // A reload keeps the draft.
    await page.reload();
    await said(0, 'Plan the kitchen').waitFor({ timeout: limit(15_000) });
    await expect.poll(() => box.inputValue(), { timeout: limit(10_000) }).toBe('Add a pantry shelf');
    // Sending clears it, for good.
    await box.press('End');
    await box.press('Enter');
    await lastTurnDone(page);
    expect(await box.inputValue()).toBe('');
    // The answer tells its speed (as LM Studio does), not bare credits.
    expect(await turns().last().getByTestId('turn-speed').innerText()).toMatch(/^([\d,]+(\.\d)? tokens\/s · )?(first text after [\d,]+\.\d s|first text in under 0\.1 s)$/);
    expect(await turns().last().getByTestId('turn-credits').count()).toBe(0);
    await looked('chat-answer-speed');
    await page.reload();
    await turns().nth(1).waitFor({ timeout: limit(15_000) });
    expect(await box.inputValue()).toBe('');
  }, limit(120_000));

  it('find a word in turn 3 of a 40-turn chat: Ctrl+F highlights it, next and previous move between matches, the current one in view; a search of the list opens the hit highlighted', async () => {
    const { page } = env;
    await newChat(page);
    const messages = Array.from({ length: 40 }, (_, i) => (i === 2 ? 'Bring the quince marmalade to the picnic' : `Turn ${i + 1} talks about the weather`));
    const long = await arrangeSession(page, messages);
    // Another conversation, without the word: the list's search then visibly narrows to one.
    await arrangeSession(page, ['Nothing about preserves here']);
    await page.reload();
    await page.locator(`[data-session-id="${long.id}"] .session-open`).click();
    // The list draws only the turns near the view: opened once the newest (the 40th) is drawn.
    await page.locator('[data-turn-index="39"]').waitFor({ timeout: limit(20_000) });
    // The newest turn in view, turn 3 far above.
    await page.locator('#chat-input').click();
    await page.keyboard.press('Control+f');
    const bar = page.getByTestId('find-bar');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: limit(5_000) }).toBe('find-input');
    await page.keyboard.type('MARMALADE');
    const count = bar.getByTestId('find-count');
    // The message and the answer that repeats it, both in turn 3 (case folded).
    await expect.poll(() => count.innerText(), { timeout: limit(10_000) }).toBe('1 of 2');
    const current = () => currentFindMatch(page);
    await expect.poll(current, { timeout: limit(10_000) }).toEqual({ turn: 2, text: 'marmalade', inView: true, all: 2 });
    await looked('chat-find');
    await page.locator('#find-input').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => count.innerText(), { timeout: limit(5_000) }).toBe('2 of 2');
    expect((await current())?.turn).toBe(2);
    await page.keyboard.press('Shift+Enter');
    await expect.poll(() => count.innerText(), { timeout: limit(5_000) }).toBe('1 of 2');
    await bar.getByRole('button', { name: 'Next match' }).click();
    await expect.poll(() => count.innerText(), { timeout: limit(5_000) }).toBe('2 of 2');
    // A word that is nowhere says so.
    await page.locator('#find-input').fill('zeppelin');
    await expect.poll(() => count.innerText(), { timeout: limit(5_000) }).toBe('No matches');
    // Esc closes: no highlight left, focus back in the message box.
    await page.locator('#find-input').press('Escape');
    await bar.waitFor({ state: 'detached', timeout: limit(5_000) });
    expect(await page.evaluate(() => [CSS.highlights.has('find-match'), document.activeElement?.id])).toEqual([false, 'chat-input']);
    // Across conversations: the list's search finds it, and opening the hit highlights it.
    await newChat(page);
    await page.getByRole('searchbox', { name: 'Search sessions' }).fill('marmalade');
    // The list answers the search: only the conversation that holds the word.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="session"]').length === 1, null, { timeout: limit(15_000) });
    await page.locator(`[data-session-id="${long.id}"] .session-open`).click();
    await page.locator('[data-turn-index="39"]').waitFor({ timeout: limit(20_000) });
    await expect.poll(() => count.innerText(), { timeout: limit(10_000) }).toBe('1 of 2');
    await expect.poll(current, { timeout: limit(10_000) }).toEqual({ turn: 2, text: 'marmalade', inView: true, all: 2 });
    await page.locator('#find-input').press('Escape');
    await page.getByRole('searchbox', { name: 'Search sessions' }).fill('');
  }, limit(180_000));

  it('keyboard: Esc leaves the message box so "g m" opens Memories (nothing typed); "?" and Ctrl+/ show the shortcuts; Ctrl+Shift+O starts a new chat', async () => {
    const { page } = env;
    await newChat(page);
    const box = page.locator('#chat-input');
    await box.click();
    await page.keyboard.type('draft');
    await page.keyboard.press('Escape');
    await page.keyboard.press('g');
    await page.keyboard.press('m');
    await page.getByRole('heading', { level: 1, name: 'Memories' }).waitFor({ timeout: limit(10_000) });
    await page.keyboard.press('?');
    const sheet = page.getByTestId('shortcuts-sheet');
    await sheet.getByRole('heading', { name: 'Keyboard shortcuts' }).waitFor({ timeout: limit(5_000) });
    expect(await sheet.innerText()).toContain('New chat');
    await looked('shortcuts-sheet');
    await page.keyboard.press('Escape');
    await sheet.getByRole('heading').waitFor({ state: 'detached', timeout: limit(5_000) });
    await sidebarChat().click();
    expect(await box.inputValue()).toBe('draft');
    // Ctrl+/ works from inside the message box, where "?" is a character.
    await box.click();
    await page.keyboard.press('Control+/');
    await sheet.getByRole('heading', { name: 'Keyboard shortcuts' }).waitFor({ timeout: limit(5_000) });
    await sheet.getByRole('button', { name: 'Close' }).click();
    expect(await box.inputValue()).toBe('draft');
    // A conversation open, then Ctrl+Shift+O: a new chat, its message box focused.
    const one = await arrangeSession(page, ['A short one']);
    await page.evaluate((id) => (location.hash = `#/chat/${id}`), one.id);
    await turns().first().waitFor({ timeout: limit(10_000) });
    await page.keyboard.press('Control+Shift+O');
    await page.waitForFunction(() => !/^#\/chat\/\d+$/.test(location.hash) && document.querySelectorAll('[data-testid="turn"]').length === 0, null, { timeout: limit(10_000) });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: limit(5_000) }).toBe('chat-input');
    await box.fill('');
  }, limit(90_000));

  it('an agent deleted under an open chat: the chat says so, keeps its history, and continues with another agent', async () => {
    const { page } = env;
    const chat = ((await pageFetch(page, 'GET', '/api/agents?type=chat&per_page=100')).json.data as any[]).find((x) => x.title === 'Chat');
    const helper = (await pageFetch(page, 'POST', '/api/agents', { title: 'Garden helper', type: 'chat', questions: chat.questions })).json;
    const model = await page.locator('#q-model').inputValue();
    const first = await pageFetch(page, 'POST', `/api/agents/${helper.id}/execute`, { model, temperature: '0', tools: 'no-tools', messages: [{ role: 'user', content: 'When do tulips go in?' }], wait_execution: true });
    const root = first.json.responses[0].id as number;
    await page.reload();
    await page.locator(`[data-session-id="${root}"] .session-open`).click();
    await said(0, 'When do tulips go in?').waitFor({ timeout: limit(15_000) });
    // The agent goes, in its editor, while the conversation is open.
    await openScreen(page, 'Agents', 'Agents');
    await page.locator('[data-testid="agent-cards"] article', { hasText: 'Garden helper' }).getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('button', { name: 'Delete agent' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete agent' }).click();
    await expect.poll(async () => (await pageFetch(page, 'GET', `/api/agents/${helper.id}`)).status, { timeout: limit(10_000) }).toBe(404);
    await sidebarChat().click();
    // The same conversation, its history there, and a way on.
    await said(0, 'When do tulips go in?').waitFor({ timeout: limit(10_000) });
    const gone = page.getByTestId('gone-agent');
    await gone.waitFor({ timeout: limit(10_000) });
    expect(await gone.innerText()).toContain("This conversation's agent was deleted.");
    expect(await gone.innerText()).not.toMatch(/#\d|Agent \d/);
    // The picker does not pretend another agent is chosen.
    expect(await page.getByTestId('agent-picker').evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent)).toBe('Choose an agent');
    await looked('chat-agent-deleted');
    await gone.getByRole('button', { name: 'Continue with Chat' }).click();
    await gone.waitFor({ state: 'detached', timeout: limit(10_000) });
    // The model and tools row is back, and the message goes on in the same conversation.
    await page.locator('#q-model').waitFor({ timeout: limit(10_000) });
    await chooseGptModel(page);
    const box = page.locator('#chat-input');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: limit(5_000) }).toBe('chat-input');
    await page.keyboard.type('And daffodils?');
    await box.press('Enter');
    await turns().nth(1).waitFor({ timeout: limit(10_000) });
    await lastTurnDone(page);
    expect(await turns().nth(1).getByTestId('answer').innerText()).toContain('You said: And daffodils?');
    const stored = (await pageFetch(page, 'GET', `/api/sessions/${root}`)).json;
    expect(stored.executions.map((e: any) => e.template_id)).toEqual([helper.id, chat.id]);
    expect(await page.evaluate(() => location.hash)).toBe(`#/chat/${root}`);
  }, limit(120_000));

  it('the provider refuses its key, then stops: an old chat stays readable, with a notice naming what failed, Retry and Settings', async () => {
    const { page } = env;
    await newChat(page);
    const old = await arrangeSession(page, ['Remember the blue notebook', 'Where did I leave it?']);
    const readOld = async () => {
      await page.reload();
      await page.locator(`[data-session-id="${old.id}"] .session-open`).click();
      await turns().nth(1).waitFor({ timeout: limit(15_000) });
      // The history is there, the first-run screen is not.
      expect(await page.getByTestId('setup-panel').count()).toBe(0);
      expect(await turns().first().getByTestId('user-message').innerText()).toContain('Remember the blue notebook');
      expect(await turns().nth(1).getByTestId('answer').innerText()).toContain('You said: Where did I leave it?');
    };
    const notice = page.getByTestId('provider-notice');
    // The key is refused.
    env.fake.set({ apiKey: 'sk-other' });
    await readOld();
    await notice.getByText('The server refused the API key. Check the key, then try again.').waitFor({ timeout: limit(15_000) });
    // The provider the app was started with is named by its address, not by an id.
    expect(await notice.innerText()).toContain(`Server at ${new URL(env.fake.url).host}:`);
    // Retry once the provider takes the key again: the notice goes.
    env.fake.set({ apiKey: undefined });
    await notice.getByRole('button', { name: 'Retry' }).click();
    await notice.waitFor({ state: 'detached', timeout: limit(15_000) });
    // The provider stops.
    await env.fake.close();
    await readOld();
    await notice.waitFor({ timeout: limit(15_000) });
    const words = await notice.innerText();
    expect(words).toMatch(/Nothing answered at 127\.0\.0\.1:\d+\. Start the server there, or check the address\./);
    expect(words).not.toMatch(/ECONNREFUSED|http:\/\//);
    await looked('chat-provider-stopped');
    // Retry while it is still down keeps the notice; Settings leads to the providers.
    await notice.getByRole('button', { name: 'Retry' }).click();
    await notice.getByRole('button', { name: 'Retry' }).waitFor({ timeout: limit(10_000) });
    await notice.getByRole('link', { name: 'Open Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor({ timeout: limit(10_000) });
    expect(await page.evaluate(() => location.hash)).toBe('#/settings/providers');
    // Back to the chat: the same conversation, still readable.
    await sidebarChat().click();
    await turns().nth(1).waitFor({ timeout: limit(10_000) });
    expect(await page.evaluate(() => location.hash)).toBe(`#/chat/${old.id}`);
  }, limit(120_000));
});
