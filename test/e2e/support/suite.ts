import { afterAll, beforeAll } from 'vitest';
import type { Page } from 'playwright-core';
import { guardedIt } from './chat-env';
import { launchBrowser, type Browser } from './browser';
import { limit } from '../../fixtures/until.js';

export interface Closable {
  close(): Promise<void>;
}

/** Hands a started thing to the suite, which closes it in afterAll; returns it unchanged. */
export type Own = <T extends Closable>(thing: T) => T;

/**
 * One e2e suite's set-up and tear-down. `start` runs in beforeAll; an error there is kept and fails
 * every test with its own message (never a skip, e.g. no Chromium). afterAll closes all that `start`
 * handed to `own`, last started first, also after a failed start; every close runs even if one throws.
 * Returns the suite's `it`.
 */
export function e2eSetup(start: (own: Own) => Promise<void>, timeout = limit(180_000)): ReturnType<typeof guardedIt> {
  const owned: Closable[] = [];
  let setupError: unknown = null;
  beforeAll(async () => {
    try {
      await start((thing) => {
        owned.push(thing);
        return thing;
      });
    } catch (err) {
      setupError = err;
    }
  }, timeout);
  afterAll(async () => {
    const failures: unknown[] = [];
    for (const thing of owned.reverse()) await thing.close().catch((err: unknown) => failures.push(err));
    if (failures.length) throw failures[0];
  }, limit(30_000));
  return guardedIt(() => setupError);
}

/** Chromium with one page that accepts the app's confirm dialogs, as a person clicking OK does. */
export async function openPage(): Promise<{ browser: Browser; page: Page; close(): Promise<void> }> {
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    page.on('dialog', (d) => void d.accept());
    return { browser, page, close: () => browser.close() };
  } catch (err) {
    await browser.close();
    throw err;
  }
}
