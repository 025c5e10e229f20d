/**
 * A new chat on the Chat agent runs near 0.7 (its temperature's default, 0.75), an agent saved with
 * its own temperature (0.2) keeps it, and a temperature a person picked before stays theirs; the
 * provider's request says so. A conversation's own options are a temperature slider, starting where
 * the chat runs now, and a longest-answer field. Chromium against `serve` with a fake provider.
 */
import { describe, expect } from 'vitest';
import { chooseGptModel, lastTurnDone, newChat, sendMessage, startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { pageFetch } from './support/page';
import { limit } from '../fixtures/until.js';

let env: ChatEnv;
const lastRequest = () => env.fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body;

async function chatAgent(): Promise<{ id: number; questions: any[] }> {
  const agents = (await pageFetch(env.page, 'GET', '/api/agents?type=chat&per_page=100')).json.data as { id: number; title: string; questions: any[] }[];
  return agents.find((a) => a.title === 'Chat')!;
}

describe('the temperature a chat starts with', () => {
  const it = e2eSetup(async (own) => {
    env = own(await startChatEnv({ reply: 'Warm enough.' }));
    await chooseGptModel(env.page);
  });

  it("a new Chat conversation sends 0.75; the per-chat options are a slider starting there and a longest-answer field", async () => {
    const { page } = env;
    await newChat(page);
    await expect.poll(() => page.getByTestId('options-chip').textContent(), { timeout: limit(10_000) }).toBe('Options Temperature 0.75');
    await sendMessage(page, 'How warm is it?');
    await lastTurnDone(page);
    expect(lastRequest().temperature).toBe(0.75);

    await page.getByRole('button', { name: 'Edit the instructions and options of this chat' }).click();
    const dialog = page.getByRole('dialog', { name: 'Instructions and options for this chat' });
    await dialog.getByLabel('Use a temperature of its own for this chat').check();
    expect(await dialog.getByRole('slider', { name: 'Temperature' }).inputValue()).toBe('0.75');
    expect(await dialog.getByTestId('chat-temperature-value').textContent()).toBe('0.75');
    expect(await dialog.getByLabel('Longest answer, in tokens').getAttribute('type')).toBe('number');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }, limit(120_000));

  it('an agent saved with 0.2 sends 0.2', async () => {
    const { page } = env;
    const chat = await chatAgent();
    const questions = chat.questions.map((q) => (q.name === 'temperature' ? { ...q, options: [...q.options, '0.2'], default: '0.2' } : q));
    const made = await pageFetch(page, 'POST', '/api/agents', { title: 'Careful helper', type: 'chat', questions });
    expect(made.status).toBe(201);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
    await newChat(page);
    await page.getByTestId('agent-picker').selectOption({ label: 'Careful helper' });
    await chooseGptModel(page);
    await expect.poll(() => page.getByTestId('options-chip').textContent(), { timeout: limit(10_000) }).toBe('Options Temperature 0.2');
    await sendMessage(page, 'Carefully now');
    await lastTurnDone(page);
    expect(lastRequest().temperature).toBe(0.2);
    await page.getByTestId('agent-picker').selectOption({ label: 'Chat' });
  }, limit(120_000));

  it("a last choice saved before keeps a temperature the person picked; the 0 every chat started on follows the agent's default", async () => {
    const { page } = env;
    const chat = await chatAgent();
    const model = await page.locator('#q-model').inputValue();
    const legacy = (temperature: string) =>
      page.evaluate(([id, v]) => {
        localStorage.removeItem(`agent-desk.choices.${id}`);
        localStorage.setItem(`agent-desk.answers.${id}`, v);
      }, [String(chat.id), JSON.stringify({ model, temperature, tools: 'no-tools' })] as const);
    for (const [saved, sent] of [['0.5', 0.5], ['0', 0.75]] as const) {
      await legacy(saved);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
      await newChat(page);
      await sendMessage(page, `Saved ${saved}`);
      await lastTurnDone(page);
      expect(lastRequest().temperature).toBe(sent);
      expect(lastRequest().model).toBe(model);
    }
  }, limit(120_000));
});
