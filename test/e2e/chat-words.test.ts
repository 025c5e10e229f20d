/**
 * Layout and words a person meets every day, in Chromium against `serve` with a fake provider:
 * a conversation's row in the list never cuts its state ("writing…") or its count at 1024, only the
 * agent's name gives way; an answer given nothing from files or memories says so in one sentence
 * under "Sources used", never empty lists with "(0)"; after Save memory the focus is back in the box,
 * not on the page; no screen shows an id, an event name or the word "execution" where a person
 * reads (a deleted agent's usage, a webhook on "a run finished"). Screenshots at 1280 and 1024,
 * light and dark.
 */
import { describe, expect } from 'vitest';
import { chooseGptModel, lastTurnDone, newChat, sendMessage, startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { openScreen, pageFetch } from './support/page';
import { shotSizesAndThemes } from './support/shots';
import { limit, until } from '../fixtures/until.js';

let env: ChatEnv;
/** Answers to a message starting "Hold" stop after their first word until the test lets them go. */
let release: () => void = () => undefined;
const held = new Promise<void>((r) => (release = r));

describe('layout and words', () => {
  const it = e2eSetup(async (own) => {
    env = own(
      await startChatEnv({
        tokens: (b) => `Answer to ${String(b.messages.at(-1)?.content ?? '')}`.split(/(?<= )/),
        gate: (i, b) => (String(b.messages.at(-1)?.content ?? '').startsWith('Hold') && i >= 1 ? held : undefined),
      }),
    );
    await chooseGptModel(env.page);
  });

  it("a conversation's row keeps its state and count whole at 1024 while an answer is written; only a long agent name gives way", async () => {
    const { page } = env;
    const agents = (await pageFetch(page, 'GET', '/api/agents?type=chat&per_page=100')).json.data as { title: string; questions: unknown[] }[];
    const chat = agents.find((a) => a.title === 'Chat')!;
    const title = 'Research assistant for long rainy afternoons';
    expect((await pageFetch(page, 'POST', '/api/agents', { title, type: 'chat', questions: chat.questions })).status).toBe(201);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
    await newChat(page);
    await page.getByTestId('agent-picker').selectOption({ label: title });
    await chooseGptModel(page);
    await sendMessage(page, 'Hold on while I think');
    const id = Number((await page.waitForFunction(() => /^#\/chat\/(\d+)$/.exec(location.hash)?.[1], null, { timeout: limit(15_000) }).then((h) => h.jsonValue())) ?? 0);
    const row = page.locator(`[data-session-id="${id}"]`);
    await row.getByTestId('session-writing').waitFor({ timeout: limit(15_000) });
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: width === 1280 ? 800 : 700 });
      const fit = await row.getByTestId('session-meta').evaluate((meta) => {
        const whole = (el: Element | null) => !!el && el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().right <= meta.getBoundingClientRect().right + 1;
        const spans = [...meta.children];
        const agent = meta.querySelector('.session-agent') as HTMLElement | null;
        return {
          text: meta.textContent ?? '',
          writing: whole(meta.querySelector('[data-testid="session-writing"]')?.parentElement ?? null),
          turns: whole(spans.find((s) => /turn/.test(s.textContent ?? '')) ?? null),
          when: whole(meta.querySelector('time')),
          metaInsideRow: meta.getBoundingClientRect().right <= (meta.closest('li')?.getBoundingClientRect().right ?? 0) + 1,
          agentCut: !!agent && agent.scrollWidth > agent.clientWidth,
          agentTooltip: agent?.title,
        };
      });
      expect(fit, `at ${width}`).toMatchObject({ writing: true, turns: true, when: true, metaInsideRow: true, agentTooltip: title });
      expect(fit.text).toMatch(/1 turn\s*· writing…/);
      if (width === 1024) expect(fit.agentCut).toBe(true);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await shotSizesAndThemes(page, 'session-row-writing');
    release();
    await lastTurnDone(page);
    await row.getByTestId('session-writing').waitFor({ state: 'detached', timeout: limit(15_000) });
    await page.getByTestId('agent-picker').selectOption({ label: 'Chat' });
  }, limit(120_000));

  it('an answer given nothing from files or memories: "Sources used" says so in one sentence, no empty lists', async () => {
    const { page } = env;
    await newChat(page);
    await sendMessage(page, 'Nothing to cite here');
    await lastTurnDone(page);
    const turn = page.locator('[data-testid="turn"]').last();
    await turn.getByRole('button', { name: 'Sources used' }).click();
    const sources = turn.getByTestId('sources');
    await sources.waitFor({ timeout: limit(10_000) });
    expect(await sources.innerText()).toBe('No passages from your files and no memories were given to the model for this answer.');
    expect(await turn.innerText()).not.toMatch(/\(0\)/);
    expect(await sources.locator('h3, ol, li').count()).toBe(0);
    await shotSizesAndThemes(page, 'sources-nothing');
    await turn.getByRole('button', { name: 'Hide sources' }).click();
  }, limit(60_000));

  it('after Save memory the focus is back in the box for the next one', async () => {
    const { page } = env;
    await openScreen(page, 'Memories', 'Memories');
    const box = page.getByTestId('new-memory');
    await box.click();
    await page.keyboard.type('I water the tulips on Sundays.');
    await page.getByRole('button', { name: 'Save memory' }).click();
    await expect.poll(() => box.inputValue(), { timeout: limit(10_000) }).toBe('');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')), { timeout: limit(10_000) }).toBe('new-memory');
    await page.keyboard.type('A second one, typed at once.');
    expect(await box.inputValue()).toBe('A second one, typed at once.');
  }, limit(60_000));

  it('no screen shows an id, an event name or "execution" where a person reads (code and examples aside)', async () => {
    const { page } = env;
    const agents = (await pageFetch(page, 'GET', '/api/agents?type=chat&per_page=100')).json.data as { id: number; title: string; questions: unknown[] }[];
    const chat = agents.find((a) => a.title === 'Chat')!;
    const gone = (await pageFetch(page, 'POST', '/api/agents', { title: 'Short-lived helper', type: 'chat', questions: chat.questions })).json;
    const run = await pageFetch(page, 'POST', `/api/agents/${gone.id}/execute`, { model: 'gpt-4o-mini', temperature: '0', tools: 'no-tools', messages: [{ role: 'user', content: 'Once' }], wait_execution: true });
    expect(run.json.responses[0].status).toBe('succeeded');
    expect((await pageFetch(page, 'DELETE', `/api/agents/${gone.id}`)).status).toBe(200);
    expect((await pageFetch(page, 'POST', `/api/agents/${chat.id}/webhooks`, { url: 'http://127.0.0.1:9/hook', events: ['execution.succeeded'], description: 'Tell the team' })).status).toBeLessThan(300);
    const faults: string[] = [];
    for (const route of ['chat', 'agents', 'files', 'memories', 'webhooks', 'schedules', 'usage/7d', 'settings/providers', 'settings/keys', 'settings/data', 'developer']) {
      await page.evaluate((h) => (location.hash = h), `#/${route}`);
      await page.locator('main h1').first().waitFor({ timeout: limit(15_000) });
      let last = '';
      let same = 0;
      const text = await until(`${route} to settle`, async () => {
        const now = await page.evaluate(() => {
          if (document.querySelector('[aria-busy="true"]')) return '';
          const root = document.body.cloneNode(true) as HTMLElement;
          for (const el of root.querySelectorAll('code, pre, kbd, samp, script, style, [data-testid="delivery-headers"]')) el.remove();
          root.style.position = 'absolute';
          root.style.left = '-99999px';
          document.body.appendChild(root);
          const t = root.innerText;
          root.remove();
          return t;
        });
        same = now && now === last ? same + 1 : 0;
        last = now;
        return same >= 2 ? now : null;
      }, limit(20_000));
      for (const [what, re] of [
        ['an id', /#\d{2,}|\b(Agent|Conversation|Session) \d+\b|\(#\d+\)/],
        ['an event name', /\b(execution|webhook|file|memory)\.[a-z_]+\b/],
        ['"execution"', /\bexecutions?\b/i],
      ] as const) {
        const hit = re.exec(text);
        if (hit) faults.push(`${route}: ${what}: "${text.slice(Math.max(0, hit.index - 30), hit.index + 30).replace(/\s+/g, ' ')}"`);
      }
      if (route === 'usage/7d') {
        expect(text).toContain('Deleted agents');
        await shotSizesAndThemes(page, 'usage-deleted-agents');
      }
    }
    expect(faults).toEqual([]);
  }, limit(180_000));
});
