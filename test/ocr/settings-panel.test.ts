/**
 * Settings → OCR in Chromium against `serve`: English is ready from the start; German, added
 * from the list, is ready from its npm package and OCR then runs as "eng+deu"; French, without
 * a model, is shown as missing with the model folder to put it in; a model copied into that
 * folder turns it ready after "Check again"; removing a language takes it off. Screenshots in
 * both sizes and themes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect } from 'vitest';
import { startChatEnv, type ChatEnv } from '../e2e/support/chat-env';
import { openScreen } from '../e2e/support/page';
import { shotSizesAndThemes } from '../e2e/support/shots';
import { e2eSetup } from '../e2e/support/suite';
import { limit } from '../fixtures/until.js';

const engModel = path.join(path.dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int', 'eng.traineddata.gz');
let env: ChatEnv;

describe('Settings → OCR', () => {
  const it = e2eSetup(async (own) => {
    env = own(await startChatEnv({ tokens: () => ['ok'] }));
  });

  it('adds, shows missing, re-checks and removes OCR languages', async () => {
    const { page } = env;
    await openScreen(page, 'Settings', 'Settings');
    await page.getByRole('tab', { name: 'OCR' }).click();
    const panel = page.getByTestId('ocr-panel');
    await panel.waitFor({ timeout: limit(10_000) });
    const row = (code: string) => panel.locator(`.ocr-lang[data-code="${code}"]`);
    await row('eng').waitFor();
    expect(await row('eng').getAttribute('data-status')).toBe('ready');
    expect(await row('eng').innerText()).toContain('from its npm package');
    const folder = path.join(env.serve.dataDir, 'ocr');
    expect(await panel.getByTestId('ocr-folder').innerText()).toBe(folder);

    await page.selectOption('#ocr-add', 'deu');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await row('deu').waitFor();
    expect(await row('deu').getAttribute('data-status')).toBe('ready');
    await page.waitForFunction(() => document.querySelector('[data-testid="ocr-tesseract"]')?.textContent === 'eng+deu');

    await page.selectOption('#ocr-add', 'fra');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await row('fra').waitFor();
    expect(await row('fra').getAttribute('data-status')).toBe('missing');
    const help = await row('fra').getByTestId('ocr-help').innerText();
    expect(help).toContain(folder);
    expect(help).toContain('fra.traineddata');
    expect(await panel.getByTestId('ocr-tesseract').innerText()).toBe('eng+deu');

    await shotSizesAndThemes(page, 'settings-ocr');

    // A model put in the folder (a copy of English stands in for French) is found on "Check again".
    fs.copyFileSync(engModel, path.join(folder, 'fra.traineddata.gz'));
    await panel.getByRole('button', { name: 'Check again' }).click();
    await page.waitForFunction(() => document.querySelector('.ocr-lang[data-code="fra"]')?.getAttribute('data-status') === 'ready');
    expect(await row('fra').innerText()).toContain('from the model folder');
    await page.waitForFunction(() => document.querySelector('[data-testid="ocr-tesseract"]')?.textContent === 'eng+deu+fra');

    // Move German first, then remove it.
    await panel.getByRole('button', { name: 'Move German up' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="ocr-tesseract"]')?.textContent === 'deu+eng+fra');
    await panel.getByRole('button', { name: 'Remove German' }).click();
    await row('deu').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.querySelector('[data-testid="ocr-tesseract"]')?.textContent === 'eng+fra');
    expect(env.problems.filter((x) => !x.includes("'script-src' was not explicitly set"))).toEqual([]);
  }, limit(120_000));
});
