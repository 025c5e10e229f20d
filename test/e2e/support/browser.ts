import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { limit } from '../../fixtures/until.js';

export const CHROMIUM = process.env.AGENT_DESK_CHROMIUM ?? '/usr/bin/chromium';

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Debian's chromium with a fresh profile. Missing chromium is a failure with a way to fix it, never a skip. */
export async function launchBrowser(opts: { colorScheme?: 'light' | 'dark'; locale?: string; args?: string[] } = {}): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`The browser end-to-end tests need Chromium at ${CHROMIUM}. Install it with: apt-get update && apt-get install -y chromium (or set AGENT_DESK_CHROMIUM).`);
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...(opts.args ?? [])],
    viewport: { width: 1280, height: 800 },
    colorScheme: opts.colorScheme ?? 'light',
    // The browser's language (navigator.language and Accept-Language), as a person's system sets it.
    ...(opts.locale ? { locale: opts.locale } : {}),
    timeout: limit(30_000),
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
