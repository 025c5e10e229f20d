/**
 * Agents that are not chats, used from the chat screen in Chromium against `serve`: the composer's
 * text fills the agent's main question, every form field reaches the model (the fake provider
 * records what it was sent), and an image prompt is the user's words only.
 */
import { describe, expect } from 'vitest';
import { lastTurnDone, sendMessage, startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { pageFetch, shot } from './support/page';
import { limit } from '../fixtures/until.js';

let env: ChatEnv;

async function fromTemplate(title: string): Promise<any> {
  const templates = (await pageFetch(env.page, 'GET', '/api/resources?per_page=100')).json.data as any[];
  const made = await pageFetch(env.page, 'POST', '/api/agents', { template_id: templates.find((t) => t.title === title).id });
  expect(made.status, JSON.stringify(made.json)).toBeLessThan(300);
  return made.json;
}

describe('text and image agents in the chat', () => {
  let summarizer: any;
  let logo: any;
  const it = e2eSetup(async (own) => {
    env = own(await startChatEnv({ reply: 'A short summary.', delayMs: 1 }));
    summarizer = await fromTemplate('Summarizer');
    logo = await fromTemplate('Logo Concepts');
    await env.page.reload();
    await env.page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
  });

  it("the summarizer's text, typed in the composer, and its other fields reach the model", async () => {
    const { page } = env;
    await page.getByTestId('agent-picker').selectOption(String(summarizer.id));
    // The main question is the composer: not repeated in the form.
    await expect.poll(() => page.locator('#q-text').count()).toBe(0);
    expect(await page.locator('#chat-input').getAttribute('placeholder')).toContain('The text to summarise');
    const length = summarizer.questions.find((q: any) => q.name === 'length');
    // The other options wait behind the Options chip above the composer.
    await page.getByTestId('options-chip').click();
    await page.selectOption('#q-length', length.options[length.options.length - 1]);
    await page.keyboard.press('Escape');
    const model = await page.$$eval('#q-model option', (os) => (os as HTMLOptionElement[]).map((o) => o.value).find((v) => v.startsWith('gpt-')) ?? '');
    if (model) await page.selectOption('#q-model', model);
    const text = 'The quarterly report shows revenue grew 12 percent while costs stayed flat.';
    await sendMessage(page, text);
    await lastTurnDone(page);
    const prompt = JSON.stringify(env.fake.prompts().at(-1));
    expect(prompt).toContain(text);
    expect(prompt).toContain(length.options[length.options.length - 1]);
    expect(await page.locator('[data-testid="turn"]').last().getByTestId('user-message').innerText()).toContain(text);
    await shot(page, 'chat-summarizer-1280-light');
  }, limit(60_000));

  it('an image prompt is the words the user typed (and the chosen style), never the form labels', async () => {
    const { page } = env;
    await page.getByTestId('agent-picker').selectOption(String(logo.id));
    const style = logo.questions.find((q: any) => q.name === 'style');
    await page.getByTestId('options-chip').click();
    await page.selectOption('#q-style', style.options[0]);
    await page.keyboard.press('Escape');
    const models = await page.$$eval('#q-model option', (os) => (os as HTMLOptionElement[]).map((o) => o.value));
    const model = models.find((m) => /gpt-image|dall-e/.test(m));
    if (model) await page.selectOption('#q-model', model);
    await sendMessage(page, 'Acme Bakery, fresh bread since 1920');
    await lastTurnDone(page);
    const gen = env.fake.requests.filter((r) => r.path.endsWith('/images/generations')).at(-1);
    expect(gen).toBeTruthy();
    expect(gen!.body.prompt).toBe(`${logo.instructions}\n\nAcme Bakery, fresh bread since 1920\n\n${style.options[0]}`);
    for (const q of logo.questions) if (q.description) expect(gen!.body.prompt).not.toContain(q.description);
  }, limit(60_000));
});
