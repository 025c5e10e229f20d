import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './build';

const AXE = fs.readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core on the page as it is now (an open dialog, a form with its notes): the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (an inline <script> would be refused).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${AXE};0`);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The same in the light and the dark theme (the page is left in the light one), by theme. */
export async function seriousViolationsInBothThemes(page: Page): Promise<Record<string, Violation[]>> {
  const found: Record<string, Violation[]> = {};
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const v = await seriousViolations(page);
    if (v.length) found[scheme] = v;
  }
  return found;
}
