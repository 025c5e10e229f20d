/**
 * Conversations people keep, as a person does it in Chromium against `serve` with a fake provider
 * on loopback: a chat's own instructions and options reach the provider's request; a conversation
 * downloads as Markdown and JSON and reads right; pinned stays pinned after a reload, archived
 * leaves the list but is found by a search that folds accents; compare two (here three) models side
 * by side, stop one, and continue with another. Screenshots at 1280 and 1024, light and dark; axe.
 */
import fs from 'node:fs';
import { describe, expect } from 'vitest';
import { arrangeSession, chooseGptModel, lastTurnDone, newChat, sendMessage, startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { shotSizesAndThemes } from './support/shots';
import { seriousViolationsInBothThemes } from './support/axe';
import { pageFetch } from './support/page';
import { limit } from '../fixtures/until.js';

let env: ChatEnv;
/** Streams of gpt-4o hold after their first word until the test lets them go (so Stop has something to stop). */
let release: () => void = () => undefined;
let held = new Promise<void>((r) => (release = r));

const completions = () => env.fake.requests.filter((r) => r.path === '/v1/chat/completions');
const lastRequest = () => completions().at(-1)!.body;
const systemText = (body: any) => body.messages.filter((m: any) => m.role === 'system' || m.role === 'developer').map((m: any) => m.content).join('\n');
const session = (id: number) => env.page.locator(`[data-session-id="${id}"]`);

describe('conversations people keep', () => {
  const it = e2eSetup(async (own) => {
    env = own(
      await startChatEnv({
        models: ['gpt-4o-mini', 'gpt-5', 'gpt-4o'],
        // Word by word, each after a turn of the fake's event loop (not a clock), so an answer spans its writing.
        tokens: (b) => `${b.model} says: about ${String(b.messages.at(-1)?.content ?? '').slice(0, 40)}`.split(/(?<= )/),
        gate: (i, b) => (b.model === 'gpt-4o' && i >= 2 ? held : new Promise<void>((r) => setImmediate(r))),
      }),
    );
    await chooseGptModel(env.page);
  });

  it("one chat's instructions and options reach the provider; a new chat's instructions go with its first message", async () => {
    const { page } = env;
    await newChat(page);
    const s = await arrangeSession(page, ['Plan a trip to Lisbon']);
    await page.reload();
    await session(s.id).locator('.session-open').click();
    await page.locator('[data-testid="turn"]').first().waitFor({ timeout: limit(15_000) });
    await expect.poll(() => page.getByTestId('chat-instructions-summary').textContent(), { timeout: limit(10_000) }).toBe('No instructions of its own');

    await page.getByRole('button', { name: 'Edit the instructions and options of this chat' }).click();
    const dialog = page.getByRole('dialog', { name: 'Instructions and options for this chat' });
    await dialog.getByLabel('Instructions').click();
    await page.keyboard.type('Answer as a pirate would.');
    await dialog.getByLabel('Use a temperature of its own for this chat').check();
    // The slider starts where the chat runs now (this conversation ran at 0); ten steps right with the keyboard make it 0.5.
    expect(await dialog.getByTestId('chat-temperature-value').textContent()).toBe('0.00');
    await dialog.getByRole('slider', { name: 'Temperature' }).focus();
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
    expect(await dialog.getByTestId('chat-temperature-value').textContent()).toBe('0.50');
    await dialog.getByLabel('Longest answer, in tokens').fill('256');
    await shotSizesAndThemes(page, 'chat-instructions-dialog');
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    await page.emulateMedia({ colorScheme: 'light' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('chat-instructions-summary').textContent(), { timeout: limit(10_000) }).toBe('“Answer as a pirate would.” · Temperature 0.5 · Up to 256 tokens');

    await sendMessage(page, 'What should I pack?');
    await lastTurnDone(page);
    const sent = lastRequest();
    expect(systemText(sent)).toContain('Answer as a pirate would.');
    expect(sent).toMatchObject({ temperature: 0.5, max_tokens: 256 });

    // Kept with the conversation: after a reload the line still says so.
    await page.reload();
    await page.locator('[data-testid="turn"]').nth(1).waitFor({ timeout: limit(15_000) });
    await expect.poll(() => page.getByTestId('chat-instructions-summary').textContent(), { timeout: limit(10_000) }).toContain('Answer as a pirate would.');

    // A new chat: instructions written before the first message go with it, and stay for the next.
    await newChat(page);
    await page.getByRole('button', { name: 'Edit the instructions and options of this chat' }).click();
    const fresh = page.getByRole('dialog', { name: 'Instructions and options for this chat' });
    await fresh.getByLabel('Instructions').fill('Reply in French.');
    expect(await fresh.getByTestId('chat-instructions-new').isVisible()).toBe(true);
    await fresh.getByRole('button', { name: 'Save' }).click();
    await sendMessage(page, 'Hello there');
    await lastTurnDone(page);
    expect(systemText(lastRequest())).toContain('Reply in French.');
    await sendMessage(page, 'And again');
    await lastTurnDone(page);
    expect(systemText(lastRequest())).toContain('Reply in French.');
    expect(systemText(lastRequest())).not.toContain('pirate');
  }, limit(180_000));

  it('downloads a conversation as Markdown and as JSON, and the files read right', async () => {
    const { page } = env;
    const s = await arrangeSession(page, ['Manutenção do carro: o que fazer?', 'E a revisão?']);
    await page.reload();
    const item = session(s.id);
    await item.getByRole('button', { name: /^More actions for Manutenção do carro/ }).click();
    const md = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Download as Markdown' }).click();
    const mdFile = await md;
    expect(mdFile.suggestedFilename()).toBe('Manutenção do carro o que fazer.md');
    const text = fs.readFileSync((await mdFile.path())!, 'utf8');
    expect(text.startsWith('# Manutenção do carro: o que fazer?\n')).toBe(true);
    expect(text).toContain('## You\n\nManutenção do carro: o que fazer?');
    expect(text).toMatch(/## Assistant \(gpt-[\w.-]+\)\n\ngpt-[\w.-]+ says: about Manutenção do carro/);
    expect(text).toContain('## You\n\nE a revisão?');
    // Focus went back to the menu's button.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('session-more');

    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Pin to the top' }).waitFor();
    const json = page.waitForEvent('download');
    // Arrow keys move in the menu, as in any menu: down to the JSON download.
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Download as JSON');
    await page.keyboard.press('Enter');
    const jsonFile = await json;
    expect(jsonFile.suggestedFilename()).toBe('Manutenção do carro o que fazer.json');
    const doc = JSON.parse(fs.readFileSync((await jsonFile.path())!, 'utf8'));
    expect(doc.id).toBe(s.id);
    expect(doc.executions.map((e: any) => e.id)).toEqual(s.turns);
    expect(doc.executions[1].input).toBe('E a revisão?');
  }, limit(120_000));

  it('pinned stays first after a reload; archived leaves the list, shows under Archived and is found by a search without accents', async () => {
    const { page } = env;
    const old = await arrangeSession(page, ['Receita de pão de queijo']);
    await arrangeSession(page, ['Something newer']);
    await page.reload();
    const first = () => page.locator('[data-testid="session"]').first();
    await first().waitFor({ timeout: limit(10_000) });
    expect(await first().getAttribute('data-session-id')).not.toBe(String(old.id));

    await session(old.id).getByRole('button', { name: /^More actions for Receita de pão de queijo/ }).click();
    await page.getByRole('menuitem', { name: 'Pin to the top' }).click();
    await expect.poll(() => first().getAttribute('data-session-id'), { timeout: limit(10_000) }).toBe(String(old.id));
    expect(await first().getByRole('img', { name: 'Pinned' }).isVisible()).toBe(true);
    await session(old.id).getByRole('button', { name: /^More actions for/ }).click();
    await page.getByRole('menu').waitFor();
    await shotSizesAndThemes(page, 'session-list-pinned-menu');
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });

    await page.reload();
    await expect.poll(() => first().getAttribute('data-session-id'), { timeout: limit(15_000) }).toBe(String(old.id));
    expect(await first().getByRole('img', { name: 'Pinned' }).isVisible()).toBe(true);

    // Archive it: out of the chats, in Archived, and found by a search (accents folded).
    await session(old.id).getByRole('button', { name: /^More actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    await session(old.id).waitFor({ state: 'detached', timeout: limit(10_000) });
    await page.getByRole('button', { name: 'Archived', exact: true }).click();
    await session(old.id).waitFor({ timeout: limit(10_000) });
    expect(await session(old.id).getByText('Archived', { exact: true }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Chats', exact: true }).click();
    await session(old.id).waitFor({ state: 'detached', timeout: limit(10_000) });
    await page.getByTestId('session-search').click();
    await page.keyboard.type('PAO DE QUEIJO');
    await session(old.id).waitFor({ timeout: limit(10_000) });
    expect(await page.locator('[data-testid="session"]').count()).toBe(1);
    await page.getByTestId('session-search').fill('');
    // And back.
    await page.getByRole('button', { name: 'Archived', exact: true }).click();
    await session(old.id).getByRole('button', { name: /^More actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Move back to chats' }).click();
    await session(old.id).waitFor({ state: 'detached', timeout: limit(10_000) });
    await page.getByRole('button', { name: 'Chats', exact: true }).click();
    await session(old.id).waitFor({ timeout: limit(10_000) });
  }, limit(120_000));

  it('compares three models side by side, stops one on its own, and continues the conversation with another', async () => {
    const { page } = env;
    await newChat(page);
    await sendMessage(page, 'Start of a comparison');
    await lastTurnDone(page);
    await page.getByRole('button', { name: 'Compare models' }).click();
    const dialog = page.getByRole('dialog', { name: 'Compare models' });
    await dialog.getByLabel('Message').click();
    await page.keyboard.type('Which sea is warmest?');
    for (const m of ['gpt-4o-mini', 'gpt-5', 'gpt-4o']) await dialog.getByRole('checkbox', { name: m, exact: true }).check();
    await dialog.getByRole('button', { name: 'Ask 3 models' }).click();
    const column = (m: string) => dialog.locator(`[data-testid="compare-column"][data-model="${m}"]`);
    await column('gpt-4o-mini').locator('[data-testid="compare-status"]', { hasText: 'Done' }).waitFor({ timeout: limit(30_000) });
    await column('gpt-5').locator('[data-testid="compare-status"]', { hasText: 'Done' }).waitFor({ timeout: limit(30_000) });
    expect(await column('gpt-5').getByTestId('compare-output').textContent()).toBe('gpt-5 says: about Which sea is warmest?');
    // Done: the measured speed, as under any answer in the chat; an estimate (≈) only while it writes.
    await expect.poll(() => column('gpt-5').getByTestId('compare-speed').textContent(), { timeout: limit(15_000) }).toMatch(/^([\d.,]+ tokens\/s · )?(first text after [\d.]+ s|first text in under 0\.1 s)$/);
    // gpt-4o is still writing (its stream is held): it stops on its own.
    await column('gpt-4o').getByTestId('compare-output').getByText('gpt-4o says:').waitFor({ timeout: limit(30_000) });
    expect(await column('gpt-4o').getByTestId('compare-status').textContent()).toBe('Writing…');
    expect(await column('gpt-4o').getByTestId('compare-speed').textContent()).toMatch(/^(≈ [\d.,]+ tokens\/s · )?(first text after [\d.]+ s|first text in under 0\.1 s)$/);
    await shotSizesAndThemes(page, 'compare-columns');
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    await page.emulateMedia({ colorScheme: 'light' });
    await column('gpt-4o').getByRole('button', { name: 'Stop gpt-4o' }).click();
    await column('gpt-4o').locator('[data-testid="compare-status"]', { hasText: 'Stopped' }).waitFor({ timeout: limit(20_000) });
    expect(await column('gpt-5').getByTestId('compare-status').textContent()).toBe('Done');
    release();
    held = new Promise<void>((r) => (release = r));

    // The three answers are siblings of the same turn in the platform.
    const rootId = Number((await page.evaluate(() => location.hash)).replace('#/chat/', ''));

    await column('gpt-5').getByRole('button', { name: 'Continue with this answer (gpt-5)' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const turns = page.locator('[data-testid="turn"]');
    await expect.poll(() => turns.count(), { timeout: limit(15_000) }).toBe(2);
    await turns.nth(1).getByText('gpt-5 says: about Which sea is warmest?').waitFor({ timeout: limit(15_000) });
    expect(await page.locator('#q-model').inputValue()).toBe('gpt-5');
    await sendMessage(page, 'Tell me more');
    await lastTurnDone(page);
    const sent = lastRequest();
    expect(sent.model).toBe('gpt-5');
    const said = sent.messages.map((m: any) => m.content);
    expect(said.slice(said.indexOf('Which sea is warmest?'))).toEqual(['Which sea is warmest?', 'gpt-5 says: about Which sea is warmest?', 'Tell me more']);
    const detail = (await page.evaluate(async (id) => (await fetch(`/api/sessions/${id}`, { headers: { 'x-agent-desk': '1' } })).json(), rootId)) as any;
    const parents = detail.executions.filter((e: any) => e.input === 'Which sea is warmest?').map((e: any) => e.parent_id);
    expect(parents).toHaveLength(3);
    expect(new Set(parents).size).toBe(1);
    expect(detail.executions.at(-1).parent_id).toBe(detail.executions.find((e: any) => e.input === 'Which sea is warmest?' && e.model === 'gpt-5').id);
    expect(env.problems.filter((p) => !p.includes('409'))).toEqual([]);
  }, limit(180_000));

  it('speaks Brazilian Portuguese: the list, its menu, the instructions line and Compare, long words unclipped', async () => {
    const { page } = env;
    expect((await pageFetch(page, 'PUT', '/api/settings/app', { locale: 'pt-BR' })).status).toBe(200);
    await page.evaluate(() => localStorage.setItem('agent-desk.locale', 'pt-BR'));
    await page.reload();
    await page.getByRole('button', { name: 'Nova conversa' }).waitFor({ timeout: limit(15_000) });
    await page.getByRole('button', { name: 'Arquivadas', exact: true }).waitFor();
    expect(await page.getByTestId('chat-instructions').textContent()).toContain('Esta conversa');
    const first = page.locator('[data-testid="session"]').first();
    await first.getByRole('button', { name: /^Mais ações para/ }).click();
    await page.getByRole('menuitem', { name: 'Baixar em Markdown' }).waitFor();
    await shotSizesAndThemes(page, 'session-menu-pt-BR');
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Comparar modelos' }).click();
    const dialog = page.getByRole('dialog', { name: 'Comparar modelos' });
    await dialog.getByLabel('Mensagem').fill('Qual é o mar mais quente?');
    await dialog.getByRole('button', { name: 'Perguntar a 2 modelos' }).waitFor();
    await shotSizesAndThemes(page, 'compare-ask-pt-BR');
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    await page.emulateMedia({ colorScheme: 'light' });
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await pageFetch(page, 'PUT', '/api/settings/app', { locale: 'en' });
    await page.evaluate(() => localStorage.setItem('agent-desk.locale', 'en'));
  }, limit(120_000));
});
