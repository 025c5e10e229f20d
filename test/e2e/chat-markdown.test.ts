/**
 * Markdown as people read it, in Chromium against `serve` with a fake provider that streams code,
 * a table, lists, a quote, links, a long URL, raw HTML and external images: line breaks and
 * highlighting in code, copy, the app's own link confirm, nothing from raw HTML runs, external
 * images are never fetched, long words wrap. Screenshots in both themes and both sizes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect } from 'vitest';
import { chooseGptModel, lastTurnDone, sendMessage, startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { shot } from './support/page';
import { limit } from '../fixtures/until.js';

let env: ChatEnv;

// A loopback "third party": counts every request, so a fetched external image would be seen.
let tracker: http.Server;
let trackerHits = 0;
let trackerUrl = '';

const LONG_URL = `https://example.com/${'a'.repeat(300)}`;
const markdown = () => `Here is the plan.

\`\`\`python
def greet(name):
    if name:
        return f"Hello, {name}!"
    return "Hello!"
\`\`\`

| Tool | Use |
| --- | --- |
| grep | search text |
| sed | edit streams |

- first item
- second item
  1. nested one

> A quoted line.

Read [the docs](https://example.com/docs) or ${LONG_URL}

Unbroken: ${'x'.repeat(400)}

<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2"><a href="javascript:window.__pwned=3">js link</a>

<img src="${trackerUrl}/pixel.png" alt="tracker">

![remote](${trackerUrl}/md.png)
`;

describe('chat markdown', () => {
  const it = e2eSetup(async (own) => {
    tracker = http.createServer((_req, res) => {
      trackerHits++;
      res.writeHead(200, { 'content-type': 'image/png' }).end();
    });
    await new Promise<void>((r) => tracker.listen(0, '127.0.0.1', r));
    own({ close: () => new Promise<void>((r) => tracker.close(() => r())) });
    trackerUrl = `http://127.0.0.1:${(tracker.address() as AddressInfo).port}`;
    env = own(await startChatEnv({ tokens: () => markdown().match(/[\s\S]{1,24}/g)!, delayMs: 2 }));
    await chooseGptModel(env.page);
    await env.browser.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  });

  it('renders code with its line breaks, indentation and highlighting, and copies it', async () => {
    const { page } = env;
    await sendMessage(page, 'Show me markdown');
    await lastTurnDone(page);
    const answer = page.locator('[data-testid="answer"]').last();
    const code = answer.locator('[data-streamdown="code-block"] pre').first();
    await code.waitFor();
    // Lines stay lines, with their indentation (innerText follows the rendering, so CSS counts).
    expect(await code.innerText()).toBe('def greet(name):\n    if name:\n        return f"Hello, {name}!"\n    return "Hello!"');
    // The block is swapped for its highlighted twin when the grammar loads: measure whichever is attached.
    await expect.poll(async () => (await code.boundingBox())?.height ?? 0, { timeout: limit(15_000) }).toBeGreaterThan(4 * 14);
    // Highlighted: the keyword has its own colour, unlike plain text.
    // (Grammars load on first use: the colours arrive a moment after the text.)
    const colours = () => code.locator('span.block span').evaluateAll((spans) => new Set(spans.map((s) => getComputedStyle(s).color)).size);
    await expect.poll(colours, { timeout: limit(15_000) }).toBeGreaterThan(2);
    await answer.locator('[data-streamdown="code-block-copy-button"]').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: limit(10_000) }).toContain('    if name:');
  }, limit(60_000));

  it('styles tables, lists and quotes; long words and URLs wrap inside the answer', async () => {
    const { page } = env;
    const answer = page.locator('[data-testid="answer"]').last();
    const table = answer.locator('table');
    expect(await table.locator('th').allInnerTexts()).toEqual(['Tool', 'Use']);
    const cellBorder = await table.locator('td').first().evaluate((td) => getComputedStyle(td).borderTopStyle);
    expect(cellBorder).toBe('solid');
    // The table's copy toolbar is one row above the table, not a stack.
    const toolbar = answer.locator('[data-streamdown="table-wrapper"] > div').first();
    expect((await toolbar.boundingBox())!.height).toBeLessThan(40);
    expect(await answer.locator('ul > li').first().evaluate((li) => getComputedStyle(li).display)).toBe('list-item');
    expect(await answer.locator('blockquote').evaluate((b) => parseFloat(getComputedStyle(b).borderLeftWidth))).toBeGreaterThan(0);
    // Nothing scrolls sideways: the conversation is as wide as its box.
    const turns = page.getByTestId('turns');
    const overflow = await turns.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await shot(page, 'chat-markdown-1280-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'chat-markdown-1280-dark');
    await page.setViewportSize({ width: 1024, height: 700 });
    expect(await turns.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
    await shot(page, 'chat-markdown-1024-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await shot(page, 'chat-markdown-1024-light');
    await page.setViewportSize({ width: 1280, height: 800 });
  }, limit(60_000));

  it('raw HTML never runs; external images are never fetched; javascript: links are dropped', async () => {
    const { page } = env;
    const answer = page.locator('[data-testid="answer"]').last();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null)).toBeNull();
    expect(await answer.locator('script').count()).toBe(0);
    expect(await answer.locator('img').count()).toBe(0);
    expect(await answer.getByTestId('blocked-image').count()).toBe(2);
    expect(await answer.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(trackerHits).toBe(0);
  }, limit(30_000));

  it("opens a link only after the app's own confirm, which is in view, and then in a new tab", async () => {
    const { page } = env;
    const answer = page.locator('[data-testid="answer"]').last();
    await answer.getByRole('button', { name: 'the docs' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open this link?' });
    await dialog.waitFor();
    expect(await dialog.getByTestId('link-url').innerText()).toBe('https://example.com/docs');
    // In view: inside the window, whatever the conversation's scroll.
    const b = (await dialog.boundingBox())!;
    expect(b.y).toBeGreaterThanOrEqual(0);
    expect(b.y + b.height).toBeLessThanOrEqual(800);
    await shot(page, 'chat-link-confirm-1280-light');
    // Cancel keeps the user here.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    // Open: a new tab (in the desktop app, the window-open handler sends it to the system browser).
    await env.browser.context.route('https://example.com/**', (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<title>docs</title>' }));
    await answer.getByRole('button', { name: 'the docs' }).click();
    const opened = env.browser.context.waitForEvent('page', { timeout: limit(10_000) });
    await page.getByRole('dialog', { name: 'Open this link?' }).getByRole('button', { name: 'Open link' }).click();
    const tab = await opened;
    expect(tab.url()).toBe('https://example.com/docs');
    await tab.close();
  }, limit(60_000));
});
