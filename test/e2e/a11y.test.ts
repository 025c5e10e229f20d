/**
 * Every screen in both themes, in Chromium against `serve`: axe-core finds no serious or critical
 * violation, no screen logs a console error or a failed request (CSP, favicon), and at 1024x700
 * with long content (a long unbroken memory, a webhook with a long URL and its delivery log)
 * nothing pushes the page sideways. Screenshots of each screen at both sizes in both themes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseGptModel, lastTurnDone, sendMessage, startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { openScreen, pageFetch, shot } from './support/page';
import { ROOT } from './support/build';
import { limit } from '../fixtures/until.js';

let env: ChatEnv;
const AXE = fs.readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

const SCREENS: [label: string, heading: string][] = [
  ['Chat', 'Chat'],
  ['Agents', 'Agents'],
  ['Files', 'Files'],
  ['Memories', 'Memories'],
  ['Webhooks', 'Webhooks'],
  ['Usage', 'Usage'],
  ['Settings', 'Settings'],
  ['Developer', 'Developer'],
];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

async function axe(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (an inline <script> would be refused).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${AXE};0`);
  const result = await page.evaluate(async () => {
    const run = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: Violation[] }> } }).axe;
    return (await run.run(document, { resultTypes: ['violations'] })).violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

const sideways = (page: Page) => page.evaluate(() => Math.max(document.documentElement.scrollWidth - document.documentElement.clientWidth, ...[...document.querySelectorAll('.main, .screen, .turns')].map((e) => e.scrollWidth - e.clientWidth)));

describe('every screen: accessibility, console, layout', () => {
  const it = e2eSetup(async (own) => {
    env = own(await startChatEnv({ reply: 'An answer with a long word: ' + 'y'.repeat(300) + ' and **markdown**.', delayMs: 1 }));
    const { page } = env;
    await chooseGptModel(page);
    await sendMessage(page, 'Hello ' + 'z'.repeat(300));
    await lastTurnDone(page);
    // Long content where screens show user text.
    expect((await pageFetch(page, 'POST', '/api/memories', { memory: 'A memory with no spaces: ' + 'm'.repeat(400) })).status).toBeLessThan(300);
    const agentId = (await pageFetch(page, 'GET', '/api/agents?per_page=1')).json.data[0].id;
    const hook = await pageFetch(page, 'POST', `/api/agents/${agentId}/webhooks`, { url: `http://127.0.0.1:9/${'h'.repeat(200)}`, method: 'POST', status: 'active' });
    expect(hook.status).toBeLessThan(300);
    env.problems.length = 0;
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`${theme}: no serious or critical axe violation on any screen`, async () => {
      const { page } = env;
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(new URL('/', env.serve.url).href);
      await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
      const found: Record<string, Violation[]> = {};
      for (const [label, heading] of SCREENS) {
        await openScreen(page, label, heading);
        // Let lazy parts (markdown, lists) settle before judging.
        await page.waitForLoadState('networkidle');
        const v = await axe(page);
        if (v.length) found[label] = v;
        await shot(page, `screen-${label.toLowerCase()}-1280-${theme}`);
      }
      expect(found).toEqual({});
      // (Console errors are checked in the pass below, on a fresh load: axe's own probes log CSP notes.)
    }, limit(120_000));

    it(`${theme}: at 1024x700 long content never pushes a screen sideways, and no screen logs an error`, async () => {
      const { page } = env;
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width: 1024, height: 700 });
      await page.goto(new URL('/', env.serve.url).href);
      await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
      env.problems.length = 0;
      const wide: Record<string, number> = {};
      for (const [label, heading] of SCREENS) {
        await openScreen(page, label, heading);
        await page.waitForLoadState('networkidle');
        if (label === 'Webhooks') {
          // The delivery log open, with a failed delivery's long error in it.
          await page.getByTestId('webhook').first().getByRole('button', { name: 'Send test' }).click();
          await page.getByTestId('delivery-log').waitFor({ timeout: limit(15_000) });
        }
        const over = await sideways(page);
        if (over > 1) wide[label] = over;
        await shot(page, `screen-${label.toLowerCase()}-1024-${theme}`);
      }
      expect(wide).toEqual({});
      expect(env.problems).toEqual([]);
      await page.setViewportSize({ width: 1280, height: 800 });
    }, limit(120_000));
  }
});
