/**
 * The composer and the session list as a person meets them, in Chromium against `serve` with a
 * fake provider on loopback: the options on one line (1280 and 1024) in words; 1.1 M characters
 * pasted become "Pasted text 1.txt" whose passages reach the model; a failed upload reads as failed;
 * an image being read does not hold Send back; a scheduled run is marked and Hide scheduled hides
 * it; two sessions with the same title are told apart by date and number; a refused tool step
 * says so. Screenshots of each state at 1280 and 1024 wide, light and dark (composer-*).
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai';
import { makePng } from '../fixtures/documents';
import { lastToolResult } from '../tools/helpers';
import { until } from '../fixtures/until';
import { ensureRendererBuilt } from './support/build';
import { startServe, type ServeProcess } from './support/server';
import { e2eSetup, openPage } from './support/suite';
import { dropFiles, openScreen, pageFetch } from './support/page';
import { shotSizesAndThemes } from './support/shots';
import { lastTurnDone, sendMessage } from './support/chat-env';
import { limit } from '../fixtures/until.js';

let fake: FakeServer;
let serve: ServeProcess | undefined;
let page: Page;
const problems: string[] = [];
let scheduleId = 0;

const CODE_SENTENCE = 'The harbour code for the night ferry is BLUE-HERON-42.';
/** 1.1 M characters: filler with one sentence the question asks about, in the middle. */
const LONG = (() => {
  const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.\n\n';
  const half = filler.repeat(Math.ceil(550_000 / filler.length));
  return `${half}${CODE_SENTENCE}\n\n${half}`.slice(0, 1_100_000 - 1) + '.';
})();

// Web search is set up (an address nothing answers at: no answer here searches), so the picker offers it.
const ENV = (f: FakeServer) => ({ AGENT_DESK_OPENAI_BASE_URL: f.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_OLLAMA_AUTODETECT: '0', AGENT_DESK_SEARXNG_URL: 'http://127.0.0.1:9' });
const ANSWERS = { model: 'gpt-4o-mini', temperature: '0', tools: 'no-tools' };
const lastTurn = () => page.locator('[data-testid="turn"]').last();
const session = (text: string) => page.getByTestId('session').filter({ hasText: text });

async function signIn(s: ServeProcess) {
  await page.goto(s.loginUrl);
  await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
}

/** Pastes as a person does: a ClipboardEvent with text, or with files. */
async function paste(data: { text?: string; files?: { name: string; type: string; base64: string }[] }) {
  await page.locator('#chat-input').evaluate((el, d) => {
    const dt = new DataTransfer();
    if (d.text !== undefined) dt.setData('text/plain', d.text);
    for (const f of d.files ?? []) dt.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
    (el as HTMLTextAreaElement).focus();
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, data);
}

const newChat = () => page.getByRole('button', { name: 'New chat' }).click();

describe('the composer and the session list', () => {
  const it = e2eSetup(async (own) => {
    ensureRendererBuilt();
    fake = own(
      await startFakeOpenAI({
        reply: 'Noted.',
        models: ['gpt-4o-mini', 'gpt-5', 'tiny-local'],
        // Asked to search while web search is off: the model calls it anyway, the platform refuses.
        toolCalls: (b) => (JSON.stringify(b.messages).includes('search the web for') && !lastToolResult(b) ? [{ name: 'web_search', arguments: JSON.stringify({ query: 'ferries' }) }] : null),
      }),
    );
    serve = await startServe(ENV(fake));
    own({ close: async () => serve?.close() });
    ({ page } = own(await openPage()));
    page.on('console', (m) => {
      // The refused file's 422 and the uploads the test breaks are what it asks for; anything else is a problem.
      if (m.type() === 'error' && !/status of 422|net::ERR_CONNECTION_RESET/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await signIn(serve);

    // Two conversations with the same title, and a schedule that asks the same thing every day.
    const ask = async (content: string) => {
      const r = await pageFetch(page, 'POST', '/api/agents/1/execute', { ...ANSWERS, messages: [{ role: 'user', content }], wait_execution: true });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      return r.json.responses[0];
    };
    const older = await ask('Plan the trip to Lisbon');
    await ask('Plan the trip to Lisbon');
    const made = await pageFetch(page, 'POST', '/api/schedules', { agent_id: 1, name: 'Morning status', every_minutes: 1440, answers: ANSWERS, messages: [{ role: 'user', content: 'What is the status?' }] });
    expect(made.status).toBe(201);
    scheduleId = made.json.id;

    // The app closed overnight: the first conversation is from yesterday, the schedule came due.
    const dataDir = serve.dataDir;
    await serve.close({ keepData: true });
    serve = undefined;
    const db = new Database(path.join(dataDir, 'agent-desk.sqlite'));
    try {
      const yesterday = new Date();
      yesterday.setDate(yesterday.getDate() - 1);
      yesterday.setHours(12, 0, 0, 0);
      expect(db.prepare('UPDATE executions SET created_at = ?, updated_at = ? WHERE root_id = ?').run(yesterday.getTime() * 1000, yesterday.getTime() * 1000, older.id).changes).toBe(1);
      expect(db.prepare('UPDATE schedules SET next_run_at = ? WHERE id = ?').run((Date.now() - 60_000) * 1000, scheduleId).changes).toBe(1);
    } finally {
      db.close();
    }
    serve = await startServe(ENV(fake), 45_000, dataDir);
    await signIn(serve);
    await until('the scheduled run to finish', async () => (await pageFetch(page, 'GET', `/api/schedules/${scheduleId}/runs`)).json.data[0]?.execution?.status === 'succeeded');
  });

  it('the options are one line above the composer at 1280 (wrapping, never cut, at 1024), in words, and open to change Tools', async () => {
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
    const row = page.getByTestId('options-row');
    await page.locator('#q-model').waitFor();
    const chipText = () => page.getByTestId('tools-chip').textContent();
    await expect.poll(chipText).toBe('Tools No tools');
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 800 });
      const box = await row.locator('.options-line').evaluate((el) => {
        const chips = [...el.children].map((c) => c.getBoundingClientRect());
        const cut = [...el.querySelectorAll<HTMLElement>('.opt-value, .opt-key, label, select')].filter((c) => c.scrollWidth > c.clientWidth + 1).length;
        return { tops: new Set(chips.map((r) => Math.round(r.top))).size, height: el.getBoundingClientRect().height, overflow: el.scrollWidth - el.clientWidth, cut };
      });
      // One line at 1280; at 1024 the row wraps rather than cutting a word (the Chat agent's "Temperature 0.75").
      expect(box, `at ${width}`).toEqual({ tops: width === 1280 ? 1 : expect.any(Number), height: expect.any(Number), overflow: 0, cut: 0 });
      expect(box.tops).toBeLessThanOrEqual(2);
      expect(box.height).toBeLessThanOrEqual(width === 1280 ? 32 : 64);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    const words = (await row.innerText()) + (await page.getByTestId('agent-picker').evaluate((s) => (s as HTMLSelectElement).selectedOptions[0].text));
    for (const raw of ['no-tools', '(chat)', '*', 'temperature']) expect(words).not.toContain(raw);
    expect(words).toContain('Temperature 0');
    await shotSizesAndThemes(page, 'composer-options');

    await page.getByTestId('tools-chip').click();
    const web = page.getByLabel('Web search', { exact: true });
    expect(await web.evaluate((s) => [...(s as HTMLSelectElement).options].slice(0, 3).map((o) => o.text))).toEqual(['No web search', 'Web search', 'Search Wikipedia']);
    await shotSizesAndThemes(page, 'composer-tools-open');
    await web.selectOption('internet');
    await expect.poll(chipText).toBe('Tools Web search');
    // Esc closes the panel and gives focus back to the chip.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#chat-tools-panel').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('tools-chip');
    await page.getByTestId('tools-chip').click();
    await page.getByLabel('Web search', { exact: true }).selectOption('no-tools');
    await page.keyboard.press('Escape');
  }, limit(90_000));

  it('a refused tool step says the tool is not allowed in this answer, not "a removed server"', async () => {
    await newChat();
    await sendMessage(page, 'Please search the web for ferries to Porto');
    await lastTurnDone(page);
    const step = lastTurn().getByTestId('tool-step');
    expect(await step.getByTestId('tool-step-status').innerText()).toBe('Not allowed in this answer');
    expect(await step.innerText()).not.toContain('removed server');
    await step.locator('summary').click();
    await step.getByTestId('tool-step-refused').waitFor();
    await shotSizesAndThemes(page, 'composer-refused-step');
  }, limit(60_000));

  it('a scheduled run is marked with its schedule; Hide scheduled hides it, and is remembered', async () => {
    const scheduled = session('What is the status?');
    await scheduled.waitFor();
    expect(await scheduled.getByTestId('session-scheduled').textContent()).toBe('ScheduledMorning status');
    expect(await scheduled.getByTestId('session-scheduled').locator('.badge').innerText()).toBe('Scheduled');
    expect(await session('Plan the trip').getByTestId('session-scheduled').count()).toBe(0);
    await shotSizesAndThemes(page, 'composer-sessions');
    await page.getByTestId('hide-scheduled').check();
    await expect.poll(() => scheduled.count()).toBe(0);
    expect(await session('Plan the trip').count()).toBe(2);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
    await session('Plan the trip').first().waitFor();
    expect(await page.getByTestId('hide-scheduled').isChecked()).toBe(true);
    expect(await scheduled.count()).toBe(0);
    await shotSizesAndThemes(page, 'composer-sessions-hidden');
    await page.getByTestId('hide-scheduled').uncheck();
    await scheduled.waitFor();
  }, limit(60_000));

  it('two sessions with the same title are told apart by date and number', async () => {
    const same = session('Plan the trip to Lisbon');
    await expect.poll(() => same.count()).toBe(2);
    const shown = await same.evaluateAll((els) => els.map((e) => [e.querySelector('[data-testid="session-date"]')!.textContent, e.querySelector('[data-testid="session-number"]')!.textContent]));
    // Newest activity first: today's (#2), then yesterday's (#1).
    expect(shown[0][0]).toMatch(/^(Just now|\d+ min ago|\d+ h ago)$/);
    expect(shown[1]).toEqual(['Yesterday', '#1']);
    expect(shown[0][1]).toBe('#2');
  }, limit(30_000));

  it('1.1 M characters pasted become "Pasted text 1.txt" with its size and upload progress; Send works and the model gets its passages', async () => {
    await newChat();
    // A slow link, so the bytes sent can be seen going up.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 100 * 1024 });
    await paste({ text: LONG });
    const chip = page.getByTestId('attachment').filter({ hasText: 'Pasted text 1.txt' });
    await chip.waitFor();
    expect(await page.locator('#chat-input').inputValue()).toBe('');
    expect(await chip.innerText()).toContain('1.0 MB');
    const seen = await until('a share of the bytes sent', async () => {
      const t = await chip.getByTestId('attachment-status').innerText();
      const m = /^Uploading (\d+) %$/.exec(t);
      return m && Number(m[1]) > 0 && Number(m[1]) < 100 ? Number(m[1]) : null;
    });
    expect(seen).toBeGreaterThan(0);
    expect(await chip.getByRole('progressbar').getAttribute('aria-valuenow')).toMatch(/^\d+$/);
    await page.locator('#chat-input').fill('What is the harbour code for the night ferry?');
    expect(await page.getByTestId('send').isDisabled()).toBe(true);
    await shotSizesAndThemes(page, 'composer-pasted-uploading');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await expect.poll(() => chip.getAttribute('data-state'), { timeout: limit(60_000) }).toBe('ready');
    await shotSizesAndThemes(page, 'composer-pasted-ready');
    expect(await page.getByTestId('send').isDisabled()).toBe(false);
    const before = fake.prompts().length;
    await page.locator('#chat-input').press('Enter');
    await lastTurnDone(page);
    const prompt = fake.prompts().slice(before).at(-1)!;
    const system = prompt.find((m: any) => m.role === 'system')?.content ?? '';
    expect(system).toContain('Pasted text 1.txt');
    expect(system).toContain('BLUE-HERON-42');
    expect(JSON.stringify(prompt.filter((m: any) => m.role === 'user')).length).toBeLessThan(1000);
    expect(problems).toEqual([]);
  }, limit(180_000));

  it("text past what the model reads: a counter, Send off with a sentence, and Attach as a file", async () => {
    await newChat();
    // 40,000 characters fit gpt-4o-mini's window; a small local model (8,192 tokens) reads about 32,768.
    const text = 'The ferry timetable changes in winter. '.repeat(1026).slice(0, 40_000);
    await page.locator('#chat-input').fill(text);
    expect(await page.getByTestId('char-counter').count()).toBe(0);
    expect(await page.getByTestId('send').isDisabled()).toBe(false);
    await page.locator('#q-model').selectOption('tiny-local');
    await page.getByTestId('char-counter').waitFor();
    expect(await page.getByTestId('char-counter').innerText()).toBe('40,000 / 32,768 characters');
    expect(await page.getByTestId('send').isDisabled()).toBe(true);
    expect(await page.getByTestId('send-blocked').innerText()).toMatch(/^This message is about 10,000 tokens, more than tiny-local reads at once \(8,192\)\. Attach it as a file instead: the model then reads the parts that matter\.\s*Attach as a file$/);
    await shotSizesAndThemes(page, 'composer-too-long');
    const before = fake.prompts().length;
    await page.locator('#chat-input').press('Enter');
    expect(fake.prompts().length).toBe(before);
    await page.getByTestId('attach-as-file').click();
    expect(await page.locator('#chat-input').inputValue()).toBe('');
    const chip = page.getByTestId('attachment').filter({ hasText: /Pasted text \d+\.txt/ });
    await expect.poll(() => chip.getAttribute('data-state'), { timeout: limit(60_000) }).toBe('ready');
    expect(await chip.innerText()).toContain('39 KB');
    await chip.getByRole('button', { name: /^Remove / }).click();
    await page.locator('#q-model').selectOption('gpt-4o-mini');
  }, limit(120_000));

  it('a failed upload shows failed, in red, with the reason; Retry where trying again can work; Remove (chat and Files)', async () => {
    await newChat();
    const uploads = /\/api\/files$/;
    const breakUploads = () => page.route(uploads, (r) => (r.request().method() === 'POST' ? r.abort('connectionreset') : r.continue()));
    // Refused for its type: failed, with why; Retry would fail again, so there is none.
    await paste({ files: [{ name: 'virus.exe', type: 'application/octet-stream', base64: Buffer.from('MZ').toString('base64') }] });
    const bad = page.getByTestId('attachment').filter({ hasText: 'virus.exe' });
    await expect.poll(() => bad.getAttribute('data-state'), { timeout: limit(20_000) }).toBe('failed');
    expect(await bad.getByTestId('attachment-status').innerText()).toBe('Failed');
    expect(await bad.getByRole('progressbar').count()).toBe(0);
    expect(await bad.getByRole('button', { name: 'Retry virus.exe' }).count()).toBe(0);
    // The connection breaks under another: failed, and Retry sends it again.
    await breakUploads();
    await paste({ files: [{ name: 'notes.txt', type: 'text/plain', base64: Buffer.from('The ferry leaves at nine.').toString('base64') }] });
    const broken = page.getByTestId('attachment').filter({ hasText: 'notes.txt' });
    await expect.poll(() => broken.getAttribute('data-state'), { timeout: limit(20_000) }).toBe('failed');
    // In the danger colour, as the theme defines it.
    const danger = await page.evaluate(() => {
      const probe = document.body.appendChild(document.createElement('span'));
      probe.style.color = 'var(--danger)';
      const c = getComputedStyle(probe).color;
      probe.remove();
      return c;
    });
    for (const chip of [bad, broken]) {
      expect(await chip.getByTestId('attachment-status').evaluate((el) => getComputedStyle(el).color)).toBe(danger);
      expect(await chip.evaluate((el) => getComputedStyle(el).borderTopColor)).toBe(danger);
    }
    await page.locator('#chat-input').fill('Read it');
    expect(await page.getByTestId('send').isDisabled()).toBe(true);
    expect(await page.getByTestId('send-blocked').innerText()).toMatch(/^"virus\.exe" could not be attached: .+ Remove it to send\.$/);
    await shotSizesAndThemes(page, 'composer-upload-failed');
    await bad.getByRole('button', { name: 'Remove virus.exe' }).click();
    expect(await page.getByTestId('send-blocked').innerText()).toMatch(/^"notes\.txt" could not be attached: .+ Remove it to send\.$/);
    await page.unroute(uploads);
    await broken.getByRole('button', { name: 'Retry notes.txt' }).click();
    await expect.poll(() => broken.getAttribute('data-state'), { timeout: limit(20_000) }).toBe('ready');
    expect(await page.getByTestId('send').isDisabled()).toBe(false);
    await broken.getByRole('button', { name: 'Remove notes.txt' }).click();
    await page.locator('#chat-input').fill('');

    await openScreen(page, 'Files', 'Files');
    await dropFiles(page, [{ name: 'virus.exe', type: 'application/octet-stream', text: 'MZ' }]);
    const row = page.locator('[data-testid="upload-row"][data-name="virus.exe"]');
    await expect.poll(() => row.getAttribute('data-status'), { timeout: limit(20_000) }).toBe('failed');
    expect(await row.innerText()).toContain('Upload failed');
    expect(await row.getByRole('progressbar').count()).toBe(0);
    expect(await row.getByRole('button', { name: 'Retry virus.exe' }).count()).toBe(0);
    await breakUploads();
    await dropFiles(page, [{ name: 'timetable.txt', type: 'text/plain', text: 'Ferries leave at nine and at noon.' }]);
    const brokenRow = page.locator('[data-testid="upload-row"][data-name="timetable.txt"]');
    await expect.poll(() => brokenRow.getAttribute('data-status'), { timeout: limit(20_000) }).toBe('failed');
    expect(await brokenRow.getByRole('progressbar').count()).toBe(0);
    await shotSizesAndThemes(page, 'composer-files-upload-failed');
    await page.unroute(uploads);
    await brokenRow.getByRole('button', { name: 'Retry timetable.txt' }).click();
    // Sent again and read. Its vectors may wait behind the pasted text's thousand passages (a file
    // reads completed only once they are written), so being read is what Retry is asked for.
    await expect.poll(() => brokenRow.getAttribute('data-status'), { timeout: limit(30_000) }).toMatch(/^(in_progress|completed)$/);
    await until('timetable.txt read', async () => {
      const f = (await pageFetch(page, 'GET', '/api/files?q=timetable')).json.data[0];
      return f && (f.status === 'completed' || f.vectors === 'pending');
    });
    await row.getByRole('button', { name: 'Remove virus.exe from the list' }).click();
    await expect.poll(() => row.count()).toBe(0);
    await openScreen(page, 'Chat', 'Chat');
  }, limit(120_000));

  it('an image being read does not hold Send back: the message goes, and says the text comes once read', async () => {
    await newChat();
    // The platform's answers on the image's reading are held: it is still being read for as long as the test says.
    const held: Route[] = [];
    const reading = /\/api\/files\/\d+(\/process)?$/;
    await page.route(reading, (r) => void held.push(r));
    const png = makePng(60, 40, 'A ticket for the night ferry').toString('base64');
    await paste({ files: [{ name: 'ticket.png', type: 'image/png', base64: png }] });
    const chip = page.getByTestId('attachment').filter({ hasText: 'ticket.png' });
    await expect.poll(() => chip.getAttribute('data-state'), { timeout: limit(20_000) }).toBe('processing');
    await page.locator('#chat-input').fill('What does the ticket say?');
    await expect.poll(() => page.getByTestId('send').isDisabled()).toBe(false);
    expect(await page.getByTestId('image-note').innerText()).toBe('"ticket.png" is still being read. You can send now: the model gets the text in the image once it is read, from your next message on.');
    expect(await chip.getByTestId('attachment-status').innerText()).toMatch(/^Reading the text in the image…/);
    await shotSizesAndThemes(page, 'composer-image-reading');
    await page.getByTestId('send').click();
    await lastTurnDone(page);
    expect(await lastTurn().locator('.msg-user .chip').innerText()).toBe('ticket.png');
    await page.unroute(reading);
    for (const r of held) await r.continue().catch(() => undefined);
    expect(problems).toEqual([]);
  }, limit(90_000));
});
