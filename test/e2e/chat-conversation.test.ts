/**
 * A conversation steered as a person does, in Chromium against `serve` with a fake provider on
 * loopback: composer keys (Enter, Shift+Enter, IME, the swap setting, Up to edit), pasted files
 * and their states, edit-and-resend and regenerate as alternatives (1/N), copy, model and time,
 * rename, search and paging of sessions, the conversation in the URL (reload, back), the message
 * just sent in view with a jump-to-latest button, and a stopped answer that reads the same after reload.
 */
import { describe, expect } from 'vitest';
import { arrangeSession, chooseGptModel, lastTurnDone, newChat, openSession, sendMessage, startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { pageFetch, shot } from './support/page';
import { limit } from '../fixtures/until';

let env: ChatEnv;

// Each answer names the message it answers and how many turns the model saw, so branches can be told apart.
const reply = (body: any) => {
  const users = body.messages.filter((m: any) => m.role === 'user');
  const last = users.at(-1).content;
  const text = typeof last === 'string' ? last : last.map((p: any) => p.text).join('');
  return [`Answer to "${text}"`, ` after ${users.length} question${users.length > 1 ? 's' : ''}.`];
};

const turns = () => env.page.locator('[data-testid="turn"]');
const lastTurn = () => turns().last();
const currentSession = () => env.page.evaluate(() => location.hash);

/**
 * Each test starts here and arranges the rest itself, so any one runs alone (`-t`) and in any order:
 * the usual fake answers and an empty new chat.
 */
async function fresh(): Promise<void> {
  env.fake.set({ tokens: reply, delayMs: 1 });
  await newChat(env.page);
}

/** Sends each message in the open chat and waits for its answer. */
async function say(...messages: string[]): Promise<void> {
  for (const m of messages) {
    await sendMessage(env.page, m);
    await lastTurnDone(env.page);
  }
}

describe('chat conversation', () => {
  const it = e2eSetup(async (own) => {
    env = own(await startChatEnv({ tokens: reply, delayMs: 1 }));
    await chooseGptModel(env.page);
    await env.browser.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  });

  it('Enter sends, Shift+Enter adds a line, IME composition never sends, and the setting swaps them', async () => {
    await fresh();
    const { page } = env;
    const box = page.locator('#chat-input');
    await box.click();
    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    expect(await box.inputValue()).toBe('first line\nsecond line');
    expect(await turns().count()).toBe(0);
    // An IME confirming a word sends Enter with isComposing: it must not send.
    await box.evaluate((el) => el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', isComposing: true, bubbles: true, cancelable: true })));
    await box.evaluate((el) => el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', keyCode: 229, bubbles: true, cancelable: true })));
    expect(await turns().count()).toBe(0);
    await page.keyboard.press('Enter');
    await lastTurnDone(page);
    expect(await lastTurn().getByTestId('user-message').locator('.msg-text').innerText()).toBe('first line\nsecond line');
    expect(await box.inputValue()).toBe('');

    // Swapped: Enter adds a line, Ctrl+Enter sends.
    await page.getByTestId('ctrl-enter-sends').check();
    await box.click();
    await page.keyboard.type('a');
    await page.keyboard.press('Enter');
    await page.keyboard.type('b');
    expect(await box.inputValue()).toBe('a\nb');
    expect(await turns().count()).toBe(1);
    await page.keyboard.press('Control+Enter');
    await lastTurnDone(page);
    expect(await turns().count()).toBe(2);
    // The choice is kept across a reload.
    await page.reload();
    await page.getByTestId('ctrl-enter-sends').waitFor();
    expect(await page.getByTestId('ctrl-enter-sends').isChecked()).toBe(true);
    await page.getByTestId('ctrl-enter-sends').uncheck();
  }, limit(60_000));

  it('shows model, time and copy on each answer', async () => {
    await fresh();
    const { page } = env;
    await say('first line', 'a\nb');
    const t = lastTurn();
    expect(await t.getByTestId('turn-model').innerText()).toMatch(/^gpt-/);
    const at = await t.getByTestId('turn-time').getAttribute('datetime');
    expect(Math.abs(Date.parse(at!) - Date.now())).toBeLessThan(10 * 60_000);
    await t.getByRole('button', { name: 'Copy answer' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: limit(10_000) }).toBe('Answer to "a\nb" after 2 questions.');
  }, limit(30_000));

  it('regenerate adds an alternative in the same session, with a 1/N switcher', async () => {
    await fresh();
    const { page } = env;
    await say('first line', 'a\nb');
    const hash = await currentSession();
    const before = (await pageFetch(page, 'GET', '/api/sessions')).json.total;
    env.fake.set({ tokens: (b: any) => ['Another take: ', ...reply(b)] });
    await lastTurn().getByRole('button', { name: 'Regenerate' }).click();
    await lastTurnDone(page);
    // (Markdown joins the two lines of the question with a space.)
    expect(await lastTurn().getByTestId('answer').locator('.md').innerText()).toBe('Another take: Answer to "a b" after 2 questions.');
    expect(await lastTurn().getByTestId('alt-position').innerText()).toBe('2/2');
    expect(await currentSession()).toBe(hash);
    expect((await pageFetch(page, 'GET', '/api/sessions')).json.total).toBe(before);
    await shot(page, 'chat-regenerated-1280-light');
    await lastTurn().getByRole('button', { name: 'Previous version' }).click();
    expect(await lastTurn().getByTestId('alt-position').innerText()).toBe('1/2');
    expect(await lastTurn().getByTestId('answer').innerText()).not.toContain('Another take');
    await lastTurn().getByRole('button', { name: 'Next version' }).click();
    expect(await lastTurn().getByTestId('alt-position').innerText()).toBe('2/2');
  }, limit(40_000));

  it('Up on an empty composer edits the last message; resending branches, and both branches stay', async () => {
    await fresh();
    const { page } = env;
    await say('first line', 'a\nb');
    await page.locator('#chat-input').click();
    await page.keyboard.press('ArrowUp');
    const editor = lastTurn().locator('textarea');
    await editor.waitFor();
    expect(await editor.inputValue()).toBe('a\nb');
    await editor.fill('edited question');
    await shot(page, 'chat-editing-1280-light');
    await editor.press('Enter');
    await lastTurnDone(page);
    expect(await lastTurn().getByTestId('user-message').locator('.msg-text').innerText()).toBe('edited question');
    expect(await lastTurn().getByTestId('answer').innerText()).toContain('Answer to "edited question" after 2 questions.');
    expect(await lastTurn().getByTestId('alt-position').innerText()).toBe('2/2');
    // The next message continues the branch shown (the edited one).
    await sendMessage(page, 'and next?');
    await lastTurnDone(page);
    expect(await turns().count()).toBe(3);
    expect(await lastTurn().getByTestId('answer').innerText()).toContain('after 3 questions');
    // Reopened from the platform, the same branches are there.
    await page.reload();
    await expect.poll(() => turns().count(), { timeout: limit(15_000) }).toBe(3);
    expect(await turns().nth(1).getByTestId('alt-position').innerText()).toBe('2/2');
    await turns().nth(1).getByRole('button', { name: 'Previous version' }).click();
    // The older branch has no third turn.
    expect(await turns().count()).toBe(2);
    expect(await lastTurn().getByTestId('user-message').locator('.msg-text').innerText()).toBe('a\nb');
  }, limit(60_000));

  it('keeps the open conversation in the URL: reload and back return to it', async () => {
    await fresh();
    const { page } = env;
    // A session whose newest branch is an edited second message, continued.
    const arranged = await arrangeSession(page, ['first question', 'second question', { content: 'second question, edited', alternative_of: 1 }, 'third question']);
    await openSession(page, arranged.id, 3);
    const first = await currentSession();
    expect(first).toBe(`#/chat/${arranged.id}`);
    await page.getByRole('button', { name: 'New chat' }).click();
    await expect.poll(() => currentSession()).toBe('#/chat');
    await sendMessage(page, 'a second conversation');
    await lastTurnDone(page);
    const second = await currentSession();
    expect(second).not.toBe(first);
    await page.reload();
    await expect.poll(() => turns().count(), { timeout: limit(15_000) }).toBe(1);
    expect(await turns().first().getByTestId('user-message').innerText()).toContain('a second conversation');
    await page.goBack();
    await expect.poll(() => currentSession()).toBe('#/chat');
    await page.goBack();
    await expect.poll(() => currentSession()).toBe(first);
    // Reopened, it shows its newest branch (the edited one, continued).
    await expect.poll(() => turns().count(), { timeout: limit(15_000) }).toBe(3);
    expect(await turns().nth(1).getByTestId('user-message').locator('.msg-text').innerText()).toBe('second question, edited');
  }, limit(60_000));

  it('renames and searches sessions', async () => {
    await fresh();
    const { page } = env;
    await arrangeSession(page, ['first line of the zebra plan', 'an edited question about zebras']);
    const { id: renamed } = await arrangeSession(page, ['a second conversation']);
    // The list reads the platform again on a reload, with the two just made on top.
    await page.reload();
    const list = page.getByRole('complementary', { name: 'Sessions' });
    await list.locator(`[data-testid="session"][data-session-id="${renamed}"]`).waitFor({ timeout: limit(15_000) });
    // Found by its id: while renamed in place, its title is an input's value, not text (and other tests' sessions may share it).
    const id = String(renamed);
    const item = list.locator(`[data-testid="session"][data-session-id="${id}"]`);
    expect(await item.innerText()).toContain('a second conversation');
    await item.getByRole('button', { name: /^Rename session/ }).click();
    const input = item.getByRole('textbox', { name: 'Session title' });
    await input.fill('Holiday planning');
    await input.press('Enter');
    await list.getByRole('button', { name: /^Holiday planning/ }).waitFor({ timeout: limit(10_000) });
    await page.getByTestId('session-search').fill('holiday');
    await expect.poll(() => list.locator('[data-testid="session"]').allInnerTexts(), { timeout: limit(10_000) }).toEqual([expect.stringContaining('Holiday planning')]);
    // Search finds words of the conversation too, not only titles.
    await page.getByTestId('session-search').fill('edited question about zebras');
    await expect.poll(() => list.locator('[data-testid="session"]').allInnerTexts(), { timeout: limit(10_000) }).toEqual([expect.stringContaining('first line of the zebra plan')]);
    await page.getByTestId('session-search').fill('no such words anywhere');
    await list.getByText('No session matches.').waitFor();
    await page.getByTestId('session-search').fill('');
    // Cleared, the whole list's first page is back (100 a page).
    const total = (await pageFetch(page, 'GET', '/api/sessions')).json.total as number;
    await expect.poll(() => list.locator('[data-testid="session"]').count(), { timeout: limit(10_000) }).toBe(Math.min(total, 100));
  }, limit(40_000));

  it('pastes a file to attach it: uploading, processing, ready; a failed one blocks Send and says why', async () => {
    await fresh();
    const { page } = env;
    const paste = (name: string, type: string, text: string) =>
      page.locator('#chat-input').evaluate(
        (el, f) => {
          const dt = new DataTransfer();
          dt.items.add(new File([f.text], f.name, { type: f.type }));
          el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
        },
        { name, type, text },
      );
    await paste('notes.txt', 'text/plain', 'The meeting is on Tuesday.');
    const chip = page.getByTestId('attachment').first();
    await expect.poll(() => chip.getAttribute('data-state'), { timeout: limit(20_000) }).toBe('ready');
    await paste('virus.exe', 'application/octet-stream', 'MZ');
    const bad = page.getByTestId('attachment').filter({ hasText: 'virus.exe' });
    await expect.poll(() => bad.getAttribute('data-state'), { timeout: limit(20_000) }).toBe('failed');
    await page.locator('#chat-input').fill('Summarize the attached file');
    expect(await page.getByTestId('send').isDisabled()).toBe(true);
    expect(await page.getByTestId('send-blocked').innerText()).toMatch(/"virus\.exe" could not be attached: .+ Remove it to send\./);
    await shot(page, 'chat-attachment-failed-1280-light');
    await bad.getByRole('button', { name: 'Remove virus.exe' }).click();
    expect(await page.getByTestId('send').isDisabled()).toBe(false);
    await page.locator('#chat-input').press('Enter');
    await lastTurnDone(page);
    expect(await lastTurn().locator('.msg-user .chip').innerText()).toBe('notes.txt');
  }, limit(60_000));

  it('brings the message just sent into view, with a jump-to-latest button while reading above', async () => {
    await fresh();
    const { page } = env;
    env.fake.set({ tokens: () => Array.from({ length: 60 }, (_, i) => `Line ${i} of a long answer.\n\n`), delayMs: 0 });
    await sendMessage(page, 'a long answer please');
    await lastTurnDone(page);
    const scroller = page.getByTestId('turns');
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    await page.getByTestId('jump-latest').waitFor({ timeout: limit(5000) });
    await shot(page, 'chat-jump-latest-1280-light');
    await page.getByTestId('jump-latest').click();
    await expect.poll(() => scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(48);
    // Scrolled up, then sending: the new message comes into view anyway.
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    env.fake.set({ tokens: reply, delayMs: 1 });
    await sendMessage(page, 'the newest message');
    await lastTurnDone(page);
    const inView = await lastTurn().getByTestId('user-message').evaluate((el) => {
      const r = el.getBoundingClientRect();
      const box = el.closest('[data-testid="turns"]')!.getBoundingClientRect();
      return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
    });
    expect(inView).toBe(true);
  }, limit(60_000));

  it('a stopped answer reads the same after a reload', async () => {
    await fresh();
    const { page } = env;
    env.fake.set({ tokens: () => Array.from({ length: 400 }, (_, i) => `w${i} `), delayMs: 30 });
    await sendMessage(page, 'write until I stop you');
    const answer = lastTurn().getByTestId('answer');
    await expect.poll(() => answer.innerText(), { timeout: limit(20_000) }).toContain('w5 ');
    await page.getByTestId('stop').click();
    await lastTurnDone(page, 'Stopped');
    // The shown text settles on the stored one.
    await expect.poll(async () => (await answer.locator('.md').innerText()).trim(), { timeout: limit(10_000) }).toBe(
      (await pageFetch(page, 'GET', `/api/agent-responses/${await lastTurn().getAttribute('data-response-id')}`)).json.output.trim(),
    );
    const shown = (await answer.locator('.md').innerText()).trim();
    await page.reload();
    await lastTurnDone(page, 'Stopped');
    expect((await lastTurn().getByTestId('answer').locator('.md').innerText()).trim()).toBe(shown);
  }, limit(60_000));

  it('pages the session list past 100', async () => {
    await fresh();
    const { page } = env;
    const agentId = (await pageFetch(page, 'GET', '/api/agents?type=chat&per_page=100')).json.data.find((a: any) => a.title === 'Chat')?.id ?? 1;
    const model = await page.locator('#q-model').inputValue();
    // Enough sessions that there are more than 100, whatever the other tests left.
    const before = (await pageFetch(page, 'GET', '/api/sessions')).json.total as number;
    for (let i = 0; i < Math.max(1, 101 - before); i++) {
      const r = await pageFetch(page, 'POST', `/api/agents/${agentId}/execute`, { model, temperature: '0', tools: 'no-tools', messages: [{ role: 'user', content: `bulk ${i}` }] });
      expect(r.status).toBeLessThan(300);
    }
    const total = (await pageFetch(page, 'GET', '/api/sessions')).json.total as number;
    expect(total).toBeGreaterThan(100);
    await page.reload();
    const list = page.getByRole('complementary', { name: 'Sessions' });
    await expect.poll(() => list.locator('[data-testid="session"]').count(), { timeout: limit(15_000) }).toBe(100);
    await page.getByTestId('more-sessions').click();
    await expect.poll(() => list.locator('[data-testid="session"]').count(), { timeout: limit(15_000) }).toBe(total);
    expect(await page.getByTestId('more-sessions').count()).toBe(0);
  }, limit(120_000));
});
