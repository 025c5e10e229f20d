import type { Page } from 'playwright-core';
import { shot } from './page';

/**
 * Screenshots `<base>-1280-light`, `-1280-dark`, `-1024-dark` and `-1024-light` of what the page
 * shows now (the sizes and themes every screen is checked in), then puts the page back at
 * 1280x800 in the light theme so the test goes on as it was.
 */
export async function shotSizesAndThemes(page: Page, base: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, `${base}-1280-light`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, `${base}-1280-dark`);
  await page.setViewportSize({ width: 1024, height: 700 });
  await shot(page, `${base}-1024-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
  await shot(page, `${base}-1024-light`);
  await page.setViewportSize({ width: 1280, height: 800 });
}
