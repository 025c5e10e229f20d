import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './build';
import { limit } from '../../fixtures/until.js';

export const SHOTS = path.join(ROOT, 'test', 'e2e', 'screenshots');

export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  // Settled, not after a fixed wait: fonts loaded and no finite animation still running.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
}

/** Opens a screen the way a user does: by its link in the sidebar. */
export async function openScreen(page: Page, label: string, heading: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: new RegExp(`^${label}`) }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: limit(10_000) });
}

/** A JSON call from inside the page, riding its session cookie (what the app itself does). */
export async function pageFetch(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; json: any }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      // The app's own header, as its HTTP client sends it (a cookie request without it is refused).
      const headers: Record<string, string> = { 'x-agent-desk': '1', ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
      const res = await fetch(url, { method, credentials: 'same-origin', headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : null };
    },
    { method, url, body },
  );
}

/** Drops files on the window as a person dragging them from the file manager does: dragenter, dragover, drop with a DataTransfer. */
export async function dropFiles(page: Page, files: { name: string; type: string; text: string }[]): Promise<void> {
  await page.evaluate(async (files) => {
    const target = document.querySelector('[data-testid="drop-root"]')!;
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(new File([f.text], f.name, { type: f.type }));
    // Spaced out as a real drag is: the app reacts to each event before the next arrives.
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
      await new Promise((r) => setTimeout(r, 50));
    }
  }, files);
}

/** Collects what the page logs as a console error (with the script it came from) or throws uncaught into `problems`. */
export function recordProblems(page: Page, problems: string[]): void {
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()} at ${m.location().url}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
}

/**
 * Opens serve's one-time login link and waits for the Chat screen and a quiet network; what was
 * logged until then is cleared from `problems`: only what the suite's own screen logs counts.
 */
export async function signInQuietly(page: Page, loginUrl: string, problems: string[]): Promise<void> {
  await page.goto(loginUrl);
  await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
  await page.waitForLoadState('networkidle');
  problems.length = 0;
}

/** Find in a conversation: the current match's turn, its words, whether it sits inside the conversation's visible area, and how many matches are marked. */
export const currentFindMatch = (page: Page) =>
  page.evaluate(() => {
    const h = CSS.highlights.get('find-current');
    const range = h ? ([...h][0] as Range) : null;
    if (!range) return null;
    const row = range.startContainer.parentElement?.closest<HTMLElement>('[data-turn-index]');
    const r = range.getBoundingClientRect();
    const box = document.querySelector('[data-testid="turns"]')!.getBoundingClientRect();
    return { turn: row ? Number(row.dataset.turnIndex) : -1, text: range.toString(), inView: r.top >= box.top && r.bottom <= box.bottom, all: [...(CSS.highlights.get('find-match') ?? [])].length };
  });
