/**
 * The colour variables in Chromium, from theme.css alone: each colour is written once as
 * light-dark(light, dark), so what decides the side is color-scheme. Every pairing of the
 * system setting and the toggle (data-theme absent, light, dark) must land on the right palette.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { ROOT } from './support/build';
import { e2eSetup, openPage } from './support/suite';
import { limit } from '../fixtures/until.js';

const CSS = fs.readFileSync(path.join(ROOT, 'src-renderer', 'styles', 'theme.css'), 'utf8');
const LIGHT = { bg: 'rgb(247, 247, 248)', text: 'rgb(27, 29, 33)', shadow: 'rgba(0, 0, 0, 0.06) 0px 1px 2px 0px, rgba(0, 0, 0, 0.05) 0px 2px 8px 0px' };
const DARK = { bg: 'rgb(19, 20, 23)', text: 'rgb(231, 233, 236)', shadow: 'rgba(0, 0, 0, 0.4) 0px 1px 2px 0px, rgba(0, 0, 0, 0) 0px 2px 8px 0px' };

let page: Page;

describe('theme colours', () => {
  const it = e2eSetup(async (own) => {
    ({ page } = own(await openPage()));
  }, limit(60_000));

  const cases = [
    ['light', null, LIGHT],
    ['light', 'light', LIGHT],
    ['light', 'dark', DARK],
    ['dark', null, DARK],
    ['dark', 'light', LIGHT],
    ['dark', 'dark', DARK],
  ] as const;
  for (const [system, toggle, want] of cases) {
    it(`system ${system}, toggle ${toggle ?? 'unset'}: the ${want === DARK ? 'dark' : 'light'} palette`, async () => {
      await page.emulateMedia({ colorScheme: system });
      await page.setContent(`<html${toggle ? ` data-theme="${toggle}"` : ''}><head><style>${CSS}</style></head><body><div id="card" style="box-shadow: var(--shadow)">card</div></body></html>`);
      const got = await page.evaluate(() => ({
        bg: getComputedStyle(document.body).backgroundColor,
        text: getComputedStyle(document.body).color,
        shadow: getComputedStyle(document.getElementById('card')!).boxShadow,
      }));
      expect(got).toEqual(want);
    }, limit(20_000));
  }
});
