/**
 * The [n] marks in a rendered answer are chips that open the cited passage in the file viewer:
 * Chromium against `serve` with a fake provider whose answer cites [1], [2, 3] and [1][2], has
 * `[1]` in inline code and in a code block, and [9], which matches no passage. Three small
 * linked files enter the context whole as passages [1]..[3]; which file is which n is read from
 * the execution's ext `context`, not assumed.
 */
import { describe, expect } from 'vitest';
import { chooseGptModel, lastTurnDone, sendMessage, startChatEnv, type ChatEnv } from '../e2e/support/chat-env';
import { keyApi, linkTextFiles, type KeyApi } from '../e2e/support/key-api';
import { shot } from '../e2e/support/page';
import { shotSizesAndThemes } from '../e2e/support/shots';
import { e2eSetup } from '../e2e/support/suite';
import { PERMIT_NOTES, PERMIT_QUESTION } from './permit-notes';
import { limit } from '../fixtures/until.js';

const KEY = 'e2e-cite-chips-key-0123456789';
const ANSWER = [
  'The release moves to 14 April [1]. ',
  'Renew the permit before Friday [2, 3]; both notes agree [1][2].\n\n',
  'Written as `[1]` in code it stays text, and [9] matches no passage.\n\n',
  '```\nlist[1] = 2\n```\n',
];
let env: ChatEnv;
let api: KeyApi;

describe('citation chips in the answer text', () => {
  const it = e2eSetup(async (own) => {
    env = own(await startChatEnv({ tokens: () => ANSWER }, { env: { AGENT_DESK_API_KEY: KEY } }));
    api = keyApi(env.serve.url, KEY);
    await linkTextFiles(api, [
      ...PERMIT_NOTES,
      { name: 'office.txt', text: 'Office memo: parking permits are renewed at the front desk before Friday noon.' },
    ]);
    await chooseGptModel(env.page);
  });

  it('makes matching [n] chips that open their passage; code and unknown numbers stay text', async () => {
    const { page } = env;
    await sendMessage(page, PERMIT_QUESTION);
    await lastTurnDone(page);
    const turn = page.locator('[data-testid="turn"]').last();
    const responseId = Number(await turn.getAttribute('data-response-id'));
    const exec = await api('GET', `/api/agent-responses/${responseId}`);
    const passages = (exec.context?.passages ?? []) as { n?: number; filename: string; text: string; position?: number }[];
    const byN = new Map(passages.filter((p) => p.n !== undefined).map((p) => [p.n!, p]));
    expect([...byN.keys()].sort()).toEqual([1, 2, 3]);

    const answer = turn.getByTestId('answer');
    const chips = answer.getByTestId('cite-chip');
    // The chips appear once the execution's context has loaded.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="turn"]:last-of-type [data-testid="cite-chip"]').length > 0, null, { timeout: limit(15_000) });
    expect(await chips.evaluateAll((els) => els.map((e) => e.getAttribute('data-n')))).toEqual(['1', '2', '3', '1', '2']);
    for (let i = 0; i < 5; i++) {
      const n = Number(await chips.nth(i).getAttribute('data-n'));
      const p = byN.get(n)!;
      expect(await chips.nth(i).getAttribute('title')).toBe(`${p.filename}${p.position !== undefined ? `, passage ${p.position + 1}` : ''}`);
      expect(await chips.nth(i).evaluate((e) => e.tagName)).toBe('BUTTON');
    }
    // Inline code and the code block keep "[1]" as written, without a chip.
    const code = answer.locator('code');
    expect(await code.count()).toBeGreaterThanOrEqual(2);
    for (const text of await code.allInnerTexts()) expect(text).toContain('[1]');
    expect(await answer.locator('code [data-testid="cite-chip"], pre [data-testid="cite-chip"]').count()).toBe(0);
    // A number with no passage stays plain text.
    expect(await answer.innerText()).toContain('[9] matches no passage');
    expect(await answer.locator('[data-n="9"]').count()).toBe(0);
    // The chips stand out from the text (a background of their own) in both themes.
    const bg = await chips.first().evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bg).not.toBe('rgba(0, 0, 0, 0)');

    await shotSizesAndThemes(page, 'cite-chips');

    const viewer = page.getByTestId('file-viewer');
    const openedOn = async (n: number) => {
      const p = byN.get(n)!;
      await viewer.waitFor();
      await viewer.getByRole('heading', { level: 2, name: p.filename, exact: true }).waitFor({ timeout: limit(10_000) });
      const cited = viewer.getByTestId('cited-passage');
      await cited.waitFor({ timeout: limit(10_000) });
      expect(await cited.innerText()).toContain(p.text.trim().slice(0, 40));
      expect(await cited.getAttribute('aria-current')).toBe('true');
    };
    // The second number of "[2, 3]", by mouse.
    await chips.nth(2).click();
    await openedOn(3);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    // The first chip, by keyboard: focus it and press Enter.
    await chips.nth(0).focus();
    await page.keyboard.press('Enter');
    await openedOn(1);
    await shot(page, 'cite-chips-viewer-1280-light');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(env.problems.filter((x) => !x.includes("'script-src' was not explicitly set"))).toEqual([]);
  }, limit(120_000));
});
