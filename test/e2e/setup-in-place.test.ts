/**
 * Things set up and changed in place, as a person does it in Chromium against `serve` (fakes on
 * loopback): web search set up from Settings (a fake SearXNG) and then reached by a chat answer;
 * a webhook's URL, events and description edited while it keeps its id, secret and delivery log,
 * its counts following a redelivery, its log usable at 1024 px; a file's text and passages
 * previewed from Files, and a file over the upload limit refused before sending, naming it; a new
 * agent from an empty form, a template that fills the form without saving, and Duplicate.
 * Screenshots at 1280 and 1024 in both themes; axe finds nothing serious.
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { startChatEnv, sendMessage, lastTurnDone, newChat, chooseGptModel, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { startReceiver, type Receiver } from './support/receiver';
import { dropFiles, openScreen, pageFetch } from './support/page';
import { shotSizesAndThemes } from './support/shots';
import { seriousViolationsInBothThemes } from './support/axe';
import { startRecordingServer, type RecordingServer } from '../fixtures/fake-http.js';
import { lastToolResult } from '../tools/helpers.js';
import { limit } from '../fixtures/until.js';

let env: ChatEnv;
let searx: RecordingServer;
let first: Receiver;
let second: Receiver;
/** what the fake SearXNG was asked */
const queries: string[] = [];

const focused = (page: Page) => page.evaluate(() => {
  const el = document.activeElement as HTMLElement | null;
  return { testid: el?.dataset.testid ?? null, text: el?.innerText?.trim() ?? '', label: el?.getAttribute('aria-label') ?? null, tag: el?.tagName ?? '' };
});

describe('set up and changed in place', () => {
  const it = e2eSetup(async (own) => {
    searx = own(
      await startRecordingServer(({ url, json }) => {
        if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json') return json(404, {});
        const q = url.searchParams.get('q') ?? '';
        queries.push(q);
        json(200, { results: [1, 2, 3, 4].map((i) => ({ title: `${q} result ${i}`, url: `http://example.test/${i}`, content: `About ${q}.` })) });
      }),
    );
    first = own(await startReceiver());
    second = own(await startReceiver());
    env = own(
      await startChatEnv(
        {
          // Offered web search, the model searches once, then answers with what it found.
          toolCalls: (b) => (b.tools?.some((t: any) => t.function.name === 'web_search') && !lastToolResult(b) ? [{ name: 'web_search', arguments: JSON.stringify({ query: 'bees in winter' }) }] : null),
          tokens: (b) => ['Found: ', lastToolResult(b) ?? 'nothing'],
        },
        { env: { AGENT_DESK_MAX_UPLOAD_MB: '1' } },
      ),
    );
  });

  it('web search: the picker says it is not set up and links to Settings, where a SearXNG address is tried and saved; an answer then searches through it', async () => {
    const { page } = env;
    // An agent saved with web search on: a new chat with it starts on web search, and says at once that none is set up.
    const made = await pageFetch(page, 'POST', '/api/agents', { template_id: 'chat-assistant', title: 'Web helper' });
    const questions = made.json.questions.map((q: any) => (q.name === 'tools' ? { ...q, default: 'internet' } : q));
    expect((await pageFetch(page, 'PATCH', `/api/agents/${made.json.id}`, { questions })).status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
    await newChat(page);
    await page.getByTestId('agent-picker').selectOption({ label: 'Web helper' });
    const rowNote = page.getByTestId('options-row').getByTestId('web-search-missing');
    await rowNote.waitFor({ timeout: limit(10_000) });
    expect(await page.getByTestId('tools-chip').innerText()).toMatch(/Web search/);
    expect(await rowNote.innerText()).toContain('Web search is not set up yet, so an answer cannot search.');
    await rowNote.getByRole('button', { name: 'Answer without web search' }).click();
    await expect.poll(async () => page.getByTestId('tools-chip').innerText()).toMatch(/No tools/);
    expect(await rowNote.count()).toBe(0);
    await page.getByTestId('agent-picker').selectOption({ label: 'Chat' });

    await newChat(page);
    await chooseGptModel(page);
    await page.getByTestId('tools-chip').click();
    const panel = page.locator('#chat-tools-panel');
    const missing = panel.getByTestId('web-search-missing');
    await missing.waitFor({ timeout: limit(10_000) });
    expect(await missing.innerText()).toContain('Web search is not set up yet');
    // A choice that cannot work is not offered.
    expect(await panel.locator('#q-tools option[value="internet"]').isDisabled()).toBe(true);
    await missing.getByRole('link', { name: 'Set it up in Settings' }).click();
    await page.getByRole('tab', { name: 'Web search', selected: true }).waitFor({ timeout: limit(10_000) });
    expect(await page.getByTestId('web-search-state').innerText()).toBe('Web search is not set up yet. Add a SearXNG address or a Brave Search key below.');

    const address = page.getByLabel('SearXNG address');
    await address.click();
    await page.keyboard.type(searx.origin);
    const form = page.getByTestId('searxng-form');
    await form.getByRole('button', { name: 'Test' }).click();
    const result = form.getByTestId('search-test-result');
    await result.waitFor({ timeout: limit(15_000) });
    expect(await result.innerText()).toMatch(/^It works: a test search found 4 results in [\d,]+ ms\. The first: “weather result 1”\.$/);
    expect(queries).toEqual(['weather']);
    // Tried, not yet saved.
    expect((await pageFetch(page, 'GET', '/api/settings/providers')).json.search.configured).toBe(false);
    await address.press('Enter');
    await expect.poll(async () => page.getByTestId('web-search-state').innerText(), { timeout: limit(10_000) }).toBe(`Web search is set up: searches go to SearXNG at ${new URL(searx.origin).host}.`);
    expect((await pageFetch(page, 'GET', '/api/settings/providers')).json.search).toEqual({ searxng_url: searx.origin, brave_has_api_key: false, configured: true });
    // Saved: focus stays on the field that was saved.
    await expect.poll(async () => (await focused(page)).testid, { timeout: limit(10_000) }).toBe('searxng-url');
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    await shotSizesAndThemes(page, 'r4-web-search-settings');

    // The Brave key is written, never shown back.
    await page.getByLabel('API key').fill('BSA-e2e-secret');
    await page.getByTestId('brave-form').getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('brave-key-state').getByText('A key is saved.').waitFor({ timeout: limit(10_000) });
    expect(await page.getByLabel('API key').inputValue()).toBe('');
    expect(await page.content()).not.toContain('BSA-e2e-secret');

    await openScreen(page, 'Chat', 'Chat');
    await newChat(page);
    await chooseGptModel(page);
    await page.getByTestId('tools-chip').click();
    expect(await page.locator('#chat-tools-panel').getByTestId('web-search-missing').count()).toBe(0);
    await page.locator('#q-tools').selectOption('internet');
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('tools-chip').innerText()).toMatch(/Web search/);
    await sendMessage(page, 'What do bees do in winter?');
    await lastTurnDone(page);
    expect(queries.at(-1)).toBe('bees in winter');
    expect(await page.locator('[data-testid="turn"]').last().innerText()).toContain('bees in winter result 1');
  }, limit(120_000));

  it('a webhook: Connect puts focus on its secret; URL, events and description change in place (same id, secret and log); counts follow a redelivery; the log fits 1024 px and reads in words', async () => {
    const { page } = env;
    // Only what this test's screens log counts.
    env.problems.length = 0;
    await openScreen(page, 'Webhooks', 'Webhooks');
    await page.getByTestId('webhook-url').fill(first.url);
    await page.getByTestId('webhook-description').fill('Ops alerts');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const notice = page.getByTestId('secret-notice');
    await notice.waitFor({ timeout: limit(10_000) });
    await expect.poll(async () => (await focused(page)).testid, { timeout: limit(10_000) }).toBe('secret-notice');
    const secret = (await page.getByTestId('webhook-secret').innerText()).trim();
    await notice.getByRole('button', { name: 'Done' }).click();
    await expect.poll(async () => (await focused(page)).testid, { timeout: limit(10_000) }).toBe('webhook-url');

    const hook = page.getByTestId('webhook').filter({ hasText: 'Ops alerts' });
    const id = (await pageFetch(page, 'GET', '/api/webhooks')).json.data.find((w: any) => w.description === 'Ops alerts').id;
    // Two tests delivered, then one redelivered: the card says 3 without a reload.
    for (const n of [1, 2]) {
      await hook.getByRole('button', { name: 'Send test' }).click();
      await expect.poll(async () => hook.getByTestId('success-count').innerText(), { timeout: limit(15_000) }).toBe(`${n} delivered`);
    }
    await hook.getByTestId('delivery').first().getByRole('button', { name: /^Details of Test at / }).click();
    await hook.getByTestId('delivery-detail').getByRole('button', { name: 'Redeliver' }).click();
    await expect.poll(() => first.received.length, { timeout: limit(15_000) }).toBe(3);
    await expect.poll(async () => hook.getByTestId('success-count').innerText(), { timeout: limit(15_000) }).toBe('3 delivered');

    // Words, not event names or jargon, where a person reads (the payload under Details is the developer's).
    const cardText = await hook.evaluate((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('pre, [data-testid="delivery-headers"]').forEach((n) => n.remove());
      return copy.innerText;
    });
    expect(cardText).not.toMatch(/execution|webhook\.test|attempt/i);
    expect(await page.locator('main').innerText()).not.toMatch(/Every run is an execution/);

    // At 1024 the log's columns all show, and its Details buttons are on screen.
    await page.setViewportSize({ width: 1024, height: 700 });
    const scroll = hook.locator('.table-scroll');
    expect(await scroll.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
    const head = await hook.getByTestId('delivery-log').locator('thead th').allInnerTexts();
    expect(head.slice(0, 4)).toEqual(['When', 'What', 'Result', 'Tries']);
    const box = await hook.getByTestId('delivery').first().getByRole('button', { name: /^(Details|Hide)/ }).boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(1024);
    await shotSizesAndThemes(page, 'r4-webhook-log');

    // Edit in place: keyboard in, Save, focus back on Edit.
    await hook.getByTestId('webhook-edit').click();
    const editor = hook.getByTestId('webhook-editor');
    await editor.waitFor();
    await expect.poll(async () => (await focused(page)).testid, { timeout: limit(10_000) }).toBe('webhook-edit-url');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(second.url);
    await editor.getByTestId('webhook-edit-description').fill('Team chat');
    await editor.getByLabel('an answer fails').uncheck();
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    await shotSizesAndThemes(page, 'r4-webhook-edit');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached', timeout: limit(10_000) });
    const edited = page.getByTestId('webhook').filter({ hasText: 'Team chat' });
    await edited.waitFor({ timeout: limit(10_000) });
    await expect.poll(async () => (await focused(page)).testid, { timeout: limit(10_000) }).toBe('webhook-edit');
    expect(await edited.getByTestId('webhook-shown-url').innerText()).toBe(second.url);
    expect(await edited.getByTestId('webhook-events').innerText()).toBe('Calls it when: an answer is ready');
    const after = (await pageFetch(page, 'GET', '/api/webhooks')).json.data.find((w: any) => w.id === id);
    expect(after).toMatchObject({ id, url: second.url, description: 'Team chat', events: ['execution.succeeded'], success_count: 3 });
    expect((await pageFetch(page, 'GET', `/api/webhooks/${id}/deliveries`)).json.total).toBe(2);

    // The next call goes to the new URL, signed with the secret shown at Connect.
    await edited.getByRole('button', { name: 'Send test' }).click();
    await expect.poll(() => second.received.length, { timeout: limit(15_000) }).toBe(1);
    const got = second.received[0];
    expect(() => new StandardWebhook(secret).verify(got.body, got.headers as Record<string, string>)).not.toThrow();
    expect(first.received).toHaveLength(3);
    await expect.poll(async () => edited.getByTestId('success-count').innerText(), { timeout: limit(15_000) }).toBe('4 delivered');
    expect(env.problems).toEqual([]);
  }, limit(150_000));

  it('Files: the limit is said, a file over it is refused before sending; Preview shows the text and passages, Esc returns focus', async () => {
    const { page } = env;
    // Only what this test's screens log counts.
    env.problems.length = 0;
    await openScreen(page, 'Files', 'Files');
    await page.getByTestId('upload-limit').waitFor({ timeout: limit(10_000) });
    expect((await page.getByTestId('upload-limit').innerText()).trim()).toBe('Up to 1.0 MB per file.');
    const requests: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && r.url().includes('/api/files') && requests.push(r.url()));
    await dropFiles(page, [{ name: 'huge.txt', type: 'text/plain', text: 'a'.repeat(2 * 1024 * 1024) }]);
    const row = page.locator('[data-testid="upload-row"][data-name="huge.txt"]');
    await row.and(page.locator('[data-status="failed"]')).waitFor({ timeout: limit(15_000) });
    expect(await row.innerText()).toContain('huge.txt is 2.0 MB: the limit is 1.0 MB per file. Try a smaller file.');
    expect(requests).toEqual([]);

    const text = Array.from({ length: 8 }, (_, p) => Array.from({ length: 8 }, (_, s) => `Paragraph ${p + 1} sentence ${s + 1} is about hives and honey.`).join(' ')).join('\n\n');
    await dropFiles(page, [{ name: 'hives.txt', type: 'text/plain', text }]);
    const file = page.locator('[data-testid="file-row"][data-name="hives.txt"][data-status="completed"]');
    await file.waitFor({ timeout: limit(30_000) });
    const preview = file.getByRole('button', { name: 'Preview hives.txt' });
    await preview.click();
    const viewer = page.getByRole('dialog', { name: 'hives.txt' });
    await viewer.waitFor({ timeout: limit(10_000) });
    const shown = viewer.getByTestId('file-text');
    await shown.waitFor({ timeout: limit(10_000) });
    const words = (s: string) => s.split(/\s+/).filter(Boolean);
    expect(words(await shown.innerText())).toEqual(words(text));
    expect(await viewer.getByRole('tab', { name: 'Text' }).getAttribute('aria-selected')).toBe('true');
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    await shotSizesAndThemes(page, 'r4-file-preview-text');
    // Keyboard: to the tabs, arrow to Passages.
    await viewer.getByRole('tab', { name: 'Text' }).focus();
    await page.keyboard.press('ArrowRight');
    await viewer.getByRole('tab', { name: /^Passages \(\d+\)$/, selected: true }).waitFor();
    await expect.poll(() => viewer.getByTestId('passage').count(), { timeout: limit(10_000) }).toBeGreaterThan(1);
    expect(await viewer.getByTestId('passage').first().innerText()).toContain('Passage 1');
    await shotSizesAndThemes(page, 'r4-file-preview-passages');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached', timeout: limit(10_000) });
    await expect.poll(async () => (await focused(page)).label, { timeout: limit(10_000) }).toBe('Preview hives.txt');
  }, limit(120_000));

  it('Agents: New agent opens an empty form (Esc leaves nothing saved), Create agent saves and opens the editor; a template fills the form without saving; Duplicate opens the copy', async () => {
    const { page } = env;
    // Only what this test's screens log counts.
    env.problems.length = 0;
    const count = async () => (await pageFetch(page, 'GET', '/api/agents?per_page=100')).json.total as number;
    await openScreen(page, 'Agents', 'Agents');
    const before = await count();
    const newButton = page.getByTestId('new-agent');
    await newButton.click();
    const form = page.getByTestId('agent-create');
    await form.waitFor();
    await expect.poll(async () => (await focused(page)).testid, { timeout: limit(10_000) }).toBe('agent-create-name');
    await page.keyboard.type('Half-written');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused(page)).testid, { timeout: limit(10_000) }).toBe('new-agent');
    expect(await count()).toBe(before);

    // A template fills the form; Cancel saves nothing either.
    await page.getByRole('tab', { name: 'Templates' }).click();
    await page.getByRole('button', { name: 'Use the template Summarizer' }).click();
    await form.waitFor();
    expect(await form.getByTestId('agent-create-name').inputValue()).toBe('Summarizer');
    await form.getByRole('button', { name: 'Cancel' }).click();
    expect(await count()).toBe(before);

    await newButton.click();
    await form.waitFor();
    await page.keyboard.type('Support replies');
    await form.getByLabel('Description').fill('Answers customers kindly.');
    await form.getByLabel('Instructions (system prompt)').fill('Reply in two short paragraphs.');
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    await shotSizesAndThemes(page, 'r4-agent-new');
    await form.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('form', { name: 'Edit Support replies' }).waitFor({ timeout: limit(10_000) });
    const made = (await pageFetch(page, 'GET', '/api/agents?per_page=100&q=Support replies')).json.data as any[];
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ title: 'Support replies', type: 'chat', description: 'Answers customers kindly.', instructions: 'Reply in two short paragraphs.' });
    expect(made[0].questions.map((q: any) => q.name)).toEqual(expect.arrayContaining(['model', 'tools', 'messages']));
    await page.getByRole('form', { name: 'Edit Support replies' }).getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Duplicate Support replies' }).click();
    await page.getByRole('form', { name: 'Edit Support replies (copy)' }).waitFor({ timeout: limit(10_000) });
    const copy = ((await pageFetch(page, 'GET', '/api/agents?per_page=100&q=Support replies (copy)')).json.data as any[])[0];
    expect(copy).toMatchObject({ type: 'chat', description: 'Answers customers kindly.', instructions: 'Reply in two short paragraphs.' });
    expect(copy.questions).toEqual(made[0].questions);
    expect(copy.id).not.toBe(made[0].id);
    expect(await count()).toBe(before + 2);
    await shotSizesAndThemes(page, 'r4-agent-duplicate');
    expect(env.problems).toEqual([]);
  }, limit(120_000));
});
