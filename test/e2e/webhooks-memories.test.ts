/**
 * Webhooks and memories as a person meets them, in Chromium against `serve`: a test sent to a
 * receiver that answers 500 reads as a failure with the receiver's answer; a delivery opens to
 * its request (headers, payload) and answer; Redeliver sends it again. The Default collection is
 * offered as a move target before the platform made it; a long memory collapses with Show more
 * (keyboard). Every delete asks through the app's own dialog (Cancel focused, Esc cancels, focus
 * back on the opener), never through the browser's confirm. Screenshots at 1280 and 1024, both themes.
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { startReceiver, type Receiver } from './support/receiver';
import { openScreen, pageFetch } from './support/page';
import { shotSizesAndThemes } from './support/shots';
import { seriousViolationsInBothThemes } from './support/axe';
import { limit } from '../fixtures/until.js';

let env: ChatEnv;
let receiver: Receiver;
/** Messages of any browser dialog (alert, confirm): the app must never open one. */
const nativeDialogs: string[] = [];

const activeText = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText?.trim() ?? '');
const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });

/** The app's confirm: open, named, Cancel focused; Esc closes it with focus back on the opener; then confirmed. */
async function confirmThroughApp(page: Page, open: () => Promise<void>, title: string | RegExp, confirmLabel: string, opener: string) {
  await open();
  const d = dialog(page, title);
  await d.waitFor({ timeout: limit(10_000) });
  expect(await activeText(page)).toBe('Cancel');
  await page.keyboard.press('Escape');
  await d.waitFor({ state: 'hidden' });
  expect(await activeText(page)).toBe(opener);
  await open();
  await d.waitFor();
  await d.getByRole('button', { name: confirmLabel }).click();
  await d.waitFor({ state: 'hidden' });
}

describe('webhooks and memories', () => {
  const it = e2eSetup(async (own) => {
    receiver = own(await startReceiver({ status: 500, body: '{"error":"database down"}' }));
    env = own(await startChatEnv({ reply: 'Fine.' }));
    env.page.on('dialog', (d) => {
      nativeDialogs.push(d.message());
      void d.dismiss();
    });
  });

  it('a test to a receiver that answers 500 reads as a failure; the delivery opens to its request and answer; Redeliver sends it again', async () => {
    const { page } = env;
    await openScreen(page, 'Webhooks', 'Webhooks');
    await page.fill('[data-testid="webhook-url"]', receiver.url);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const hook = page.locator('[data-testid="webhook"]', { hasText: receiver.url });
    await hook.waitFor({ timeout: limit(10_000) });
    await page.getByRole('button', { name: 'Done' }).click();

    await hook.getByRole('button', { name: 'Send test' }).click();
    const result = hook.getByTestId('test-result');
    await result.waitFor({ timeout: limit(15_000) });
    expect(await result.innerText()).toContain('The receiver answered 500 Internal Server Error.');
    expect(await result.getAttribute('class')).toContain('note-error');
    expect(await result.getAttribute('role')).toBe('alert');
    expect(await page.locator('.toast', { hasText: /sent/i }).count()).toBe(0);
    await expect.poll(async () => (await hook.getByTestId('failure-count').innerText()).trim()).toBe('1 failed');

    // The delivery opens to what was sent and what came back.
    const row = hook.getByTestId('delivery').first();
    await row.getByRole('button', { name: /^Details of Test at / }).click();
    const detail = hook.getByTestId('delivery-detail');
    await detail.waitFor({ timeout: limit(10_000) });
    const sent = receiver.received[0];
    const headers = await detail.getByTestId('delivery-headers').innerText();
    expect(headers).toContain(String(sent.headers['webhook-id']));
    expect(headers).toContain('application/json');
    const payload = JSON.parse(await detail.getByTestId('delivery-payload').innerText());
    expect(payload).toEqual(JSON.parse(sent.body));
    expect(payload.type).toBe('webhook.test');
    const attempt = detail.getByTestId('delivery-attempt').first();
    expect(await attempt.innerText()).toMatch(/500 Internal Server Error[\s\S]*try 1 · .* · \d+ ms/);
    expect(await attempt.getByTestId('delivery-response').innerText()).toBe('{"error":"database down"}');
    await detail.scrollIntoViewIfNeeded();
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    await shotSizesAndThemes(page, 'ui-webhook-delivery');

    // Redeliver, with the receiver answering again: same webhook-id, a second attempt that succeeded.
    receiver.answer = { status: 200, body: 'thanks' };
    await detail.getByRole('button', { name: 'Redeliver' }).click();
    await expect.poll(() => receiver.received.length, { timeout: limit(15_000) }).toBe(2);
    expect(receiver.received[1].headers['webhook-id']).toBe(sent.headers['webhook-id']);
    await hook.locator('[data-testid="delivery"][data-status="succeeded"]').waitFor({ timeout: limit(15_000) });
    await expect.poll(() => hook.getByTestId('delivery-attempt').count(), { timeout: limit(10_000) }).toBe(2);
    expect(await hook.getByTestId('delivery-attempt').first().innerText()).toMatch(/200 OK[\s\S]*try 2/);
    expect(await hook.getByTestId('delivery-response').first().innerText()).toBe('thanks');

    // A success says so, naming the answer.
    await hook.getByRole('button', { name: 'Send test' }).click();
    await expect.poll(async () => hook.getByTestId('test-result').innerText(), { timeout: limit(15_000) }).toBe('Webhook sent: the receiver answered 200 OK.');
  }, limit(90_000));

  it('offers Default as a move target before it exists, and moves a memory there', async () => {
    const { page } = env;
    const cols = async () => (await pageFetch(page, 'GET', '/api/memory-collections?per_page=50')).json.collections as { id: number; name: string }[];
    expect((await cols()).some((c) => c.name === 'default')).toBe(false);
    await openScreen(page, 'Memories', 'Memories');
    const panel = page.getByTestId('collections');
    await panel.getByTestId('default-collection').getByRole('button', { name: 'Default' }).waitFor();
    await page.fill('#new-collection', 'Travel');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await panel.getByRole('button', { name: 'Travel', exact: true }).click();
    await page.fill('[data-testid="new-memory"]', 'I prefer window seats.');
    await page.getByRole('button', { name: 'Save memory' }).click();
    const item = page.locator('[data-testid="memory"]', { hasText: 'I prefer window seats.' });
    await item.waitFor({ timeout: limit(10_000) });
    const moveTo = item.getByLabel('Move to');
    expect(await moveTo.locator('option').allInnerTexts()).toEqual(['Default', 'Travel']);
    await shotSizesAndThemes(page, 'ui-memories-move-to');
    await moveTo.selectOption({ label: 'Default' });
    await item.waitFor({ state: 'detached', timeout: limit(10_000) });
    const made = (await cols()).find((c) => c.name === 'default');
    expect(made).toBeDefined();
    const listed = (await pageFetch(page, 'GET', `/api/memories?collection_id=${made!.id}`)).json.memories.map((m: any) => m.memory);
    expect(listed).toEqual(['I prefer window seats.']);
    await panel.getByRole('button', { name: 'Default' }).click();
    await item.waitFor({ timeout: limit(10_000) });
    expect(await item.locator('.badge').first().innerText()).toBe('Default');
    // The editor's own choice: Default while another collection is shown.
    await panel.getByRole('button', { name: 'Travel', exact: true }).click();
    await page.fill('[data-testid="new-memory"]', 'Aisle seats on night trains.');
    await page.locator('form', { has: page.getByTestId('new-memory') }).getByLabel('Collection').selectOption({ label: 'Default' });
    await page.getByRole('button', { name: 'Save memory' }).click();
    await expect.poll(async () => (await pageFetch(page, 'GET', `/api/memories?collection_id=${made!.id}`)).json.memories.length, { timeout: limit(10_000) }).toBe(2);
  }, limit(60_000));

  it('collapses a long memory with Show more, opened and closed from the keyboard', async () => {
    const { page } = env;
    const long = Array.from({ length: 40 }, (_, i) => `Sentence ${i + 1} of a long memory about trains and timetables.`).join(' ');
    expect(long.length).toBeGreaterThan(2000);
    expect((await pageFetch(page, 'POST', '/api/memories', { memory: long })).status).toBeLessThan(300);
    await openScreen(page, 'Agents', 'Agents');
    await openScreen(page, 'Memories', 'Memories');
    const item = page.locator('[data-testid="memory"]', { hasText: 'Sentence 1 of' });
    await item.waitFor({ timeout: limit(10_000) });
    const text = item.getByTestId('long-text');
    const cut = () => text.evaluate((el) => el.scrollHeight > el.clientHeight + 1);
    expect(await cut()).toBe(true);
    const box = await text.boundingBox();
    expect(box!.height).toBeLessThan(200);
    const more = item.getByRole('button', { name: 'Show more' });
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    await shotSizesAndThemes(page, 'ui-memories-long-collapsed');
    await more.focus();
    await page.keyboard.press('Enter');
    const less = item.getByRole('button', { name: 'Show less' });
    await less.waitFor();
    expect(await less.getAttribute('aria-expanded')).toBe('true');
    expect(await cut()).toBe(false);
    expect(await text.innerText()).toContain('Sentence 40 of');
    await page.keyboard.press('Space');
    await item.getByRole('button', { name: 'Show more' }).waitFor();
    expect(await cut()).toBe(true);
    // A short memory has no such button.
    expect(await page.locator('[data-testid="memory"]', { hasText: 'Aisle seats on night trains.' }).getByRole('button', { name: 'Show more' }).count()).toBe(0);
  }, limit(40_000));

  it('every delete asks through the app’s dialog, naming what goes; never the browser’s confirm', async () => {
    const { page } = env;
    // Memories: a memory, then a collection (its memories move to Default, the dialog says how many).
    await openScreen(page, 'Memories', 'Memories');
    await page.getByTestId('collections').getByRole('button', { name: 'All memories' }).click();
    const memory = page.locator('[data-testid="memory"]', { hasText: 'I prefer window seats.' });
    await confirmThroughApp(page, () => memory.getByRole('button', { name: 'Delete' }).click(), 'Delete this memory?', 'Delete memory', 'Delete');
    await memory.waitFor({ state: 'detached', timeout: limit(10_000) });
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');
    await pageFetch(page, 'POST', '/api/memories', { memory: 'Packed list.', collection_id: (await pageFetch(page, 'GET', '/api/memory-collections')).json.collections.find((c: any) => c.name === 'Travel').id });
    await openScreen(page, 'Agents', 'Agents');
    await openScreen(page, 'Memories', 'Memories');
    const open = () => page.getByRole('button', { name: 'Delete Travel' }).click();
    await open();
    const d = dialog(page, 'Delete “Travel”?');
    await d.waitFor();
    expect(await d.innerText()).toContain('Its one memory moves to Default.');
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    await shotSizesAndThemes(page, 'ui-confirm-collection');
    await page.keyboard.press('Escape');
    await d.waitFor({ state: 'hidden' });
    await confirmThroughApp(page, open, 'Delete “Travel”?', 'Delete collection', '×');
    await page.getByTestId('collections').getByRole('button', { name: 'Travel', exact: true }).waitFor({ state: 'detached', timeout: limit(10_000) });

    // Webhooks: rotate the secret, then delete the webhook.
    await openScreen(page, 'Webhooks', 'Webhooks');
    const hook = page.locator('[data-testid="webhook"]', { hasText: receiver.url });
    await confirmThroughApp(page, () => hook.getByRole('button', { name: 'Rotate secret' }).click(), 'Rotate the signing secret?', 'Rotate secret', 'Rotate secret');
    await page.getByTestId('webhook-secret').waitFor({ timeout: limit(10_000) });
    await page.getByRole('button', { name: 'Done' }).click();
    await confirmThroughApp(page, () => hook.getByRole('button', { name: 'Delete' }).click(), `Delete the webhook to ${receiver.url}?`, 'Delete webhook', 'Delete');
    await hook.waitFor({ state: 'detached', timeout: limit(10_000) });

    // Files: one uploaded, then deleted from its row.
    const uploaded = await page.evaluate(async () => {
      const form = new FormData();
      form.append('file', new Blob(['Doomed notes.']), 'doomed.txt');
      const res = await fetch('/api/files', { method: 'POST', body: form, credentials: 'same-origin', headers: { 'x-agent-desk': '1' } });
      return res.status;
    });
    expect(uploaded).toBeLessThan(300);
    await openScreen(page, 'Files', 'Files');
    await confirmThroughApp(page, () => page.getByRole('button', { name: 'Delete doomed.txt' }).click(), 'Delete doomed.txt?', 'Delete file', 'Delete');
    await page.getByRole('button', { name: 'Delete doomed.txt' }).waitFor({ state: 'detached', timeout: limit(10_000) });

    // Agents: a new one from the API, deleted in its editor.
    const agent = (await pageFetch(page, 'POST', '/api/agents', { title: 'Short-lived', type: 'chat', instructions: 'Be brief.' })).json;
    expect(agent.id).toBeGreaterThan(0);
    await openScreen(page, 'Agents', 'Agents');
    await page.locator('[data-testid="agent-cards"] article', { hasText: 'Short-lived' }).getByRole('button', { name: 'Edit' }).click();
    await confirmThroughApp(page, () => page.getByRole('button', { name: 'Delete agent' }).click(), 'Delete the agent “Short-lived”?', 'Delete agent', 'Delete agent');
    await expect.poll(async () => (await pageFetch(page, 'GET', `/api/agents/${agent.id}`)).status, { timeout: limit(10_000) }).toBe(404);

    expect(nativeDialogs).toEqual([]);
  }, limit(120_000));
});
