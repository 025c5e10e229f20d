/**
 * The app in two languages, in Chromium against `serve`: a browser set to pt-BR walks every route
 * (screens, the usage periods, every Settings tab) and fails on English words beyond names and
 * what the platform holds (agent titles, model names, memories: content), on a catalog key shown
 * raw, and on text cut off or a page that scrolls sideways at 1024 px; dates and numbers read as
 * Brazilians write them (decimal comma, "28 de nov. de 2026", "agora"/"há 5 minutos"), and as
 * English readers do in a browser set to en-US. Then the language is switched in Settings with no
 * reload, kept across a reload and by a new browser profile (the platform keeps it), and put back
 * to the system's. Screenshots of every screen in Portuguese at 1280 and 1024.
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai';
import { ensureRendererBuilt } from './support/build';
import { fakeProviderEnv, nothingAt, startServe, type ServeProcess } from './support/server';
import { pageFetch, recordProblems, shot } from './support/page';
import { launchBrowser, type Browser } from './support/browser';
import { e2eSetup } from './support/suite';
import { shotSizesAndThemes } from './support/shots';
import { limit, until } from '../fixtures/until.js';

/** Every route a person can open: each screen, each usage period, each Settings tab. */
const ROUTES = [
  'chat',
  'agents',
  'files',
  'memories',
  'webhooks',
  'schedules',
  'usage/1d',
  'usage/7d',
  'usage/30d',
  'settings/providers',
  'settings/search',
  'settings/remote',
  'settings/tools',
  'settings/keys',
  'settings/localhost',
  'settings/data',
  'settings/ocr',
  'settings/searchModels',
  'settings/language',
  'developer',
];

/**
 * English words a Portuguese screen has no business showing: the language's common small words
 * and the app's own interface words. Words Portuguese shares or borrows (tokens, webhooks, log,
 * link, on-line, chat names) are not here; names and code are not words.
 */
const ENGLISH = new Set(
  `the and of to your you with for this that these those is are was were be been not yet all new add save saved delete deleted remove edit cancel open close
  show hide search loading settings agents agent files file memories memory schedules schedule usage developer providers provider key keys default model models
  name message messages send stop retry details create created never today yesterday days day week runs run credits language theme skip dismiss download upload
  connect test refresh previous next help when what how here there it by from or an can will has have more less other others any each every first last only
  conversation conversations answer answers reply ready missing running stopped failed succeeded paused active enabled disabled none empty select choose pick
  tools tool folder version secrets copy copied path system light dark screens shortcuts keyboard please could should would which where who into about after
  before until while because without within over under again also just than then them they their its our up down off set use used using`.split(/\s+/),
);

interface Reading {
  text: string;
  /** attributes a person reads or hears: aria-label, title, placeholder, alt */
  attrs: string[];
  /** buttons, tabs, badges, headings, labels and cells whose text does not fit */
  clipped: string[];
  sideways: boolean;
}

/** What the page shows a person now: visible text (code, keys typed and pre blocks left out), read attributes, and layout faults. */
function readPage(page: Page): Promise<Reading> {
  return page.evaluate(() => {
    const root = document.body.cloneNode(true) as HTMLElement;
    for (const el of root.querySelectorAll('code, pre, kbd, samp, script, style, .sr-only-code')) el.remove();
    // innerText needs layout: measure the clone where it would be.
    root.style.position = 'absolute';
    root.style.left = '-99999px';
    document.body.appendChild(root);
    const text = root.innerText;
    root.remove();
    const attrs: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('[aria-label], [title], [placeholder], [alt]')) {
      if (el.closest('code, pre')) continue;
      for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
        const v = el.getAttribute(a);
        if (v) attrs.push(v);
      }
    }
    for (const o of document.querySelectorAll('option, optgroup')) attrs.push((o as HTMLOptionElement).label || o.textContent || '');
    const clipped: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('button, [role="tab"], .badge, h1, h2, h3, label, th, .nav-link, summary, legend')) {
      const style = getComputedStyle(el);
      // Hidden, or there for screen readers only (clipped on purpose).
      if (el.offsetParent === null || !(el.textContent ?? '').trim() || el.clientWidth <= 1 || el.closest('.sr-only')) continue;
      const hides = ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
      if (hides && el.scrollWidth > el.clientWidth + 1) clipped.push((el.textContent ?? '').trim().slice(0, 60));
    }
    return { text, attrs, clipped, sideways: document.documentElement.scrollWidth > window.innerWidth + 1 };
  });
}

/** Every string the platform answered with (content: titles, model names, memories…), but its sentences for people, which the app must word. */
function collectContent(page: Page, into: Set<string>): void {
  const walk = (v: unknown, key: string) => {
    if (typeof v === 'string') {
      if (!/^(message|error|errors|help|note|reason|last_error)$/.test(key) && v.trim().length > 1) into.add(v.trim());
    } else if (Array.isArray(v)) for (const x of v) walk(x, key);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  page.on('response', (r) => {
    if (!r.url().includes('/api/') || !(r.headers()['content-type'] ?? '').includes('json')) return;
    void r.json().then((j) => walk(j, ''), () => undefined);
  });
}

/** Names, the same in every language. */
const NAMES = ['Agent Desk', 'Agent Platform', 'Hugging Face', 'LM Studio', 'Streamable HTTP', 'Brave Search'];

/** English words in what a Portuguese page shows, once the platform's content and names are taken out; each with the text around it. */
function englishIn(reading: Reading, content: Set<string>): string[] {
  // Code given as an example in a field (JSON) is not words.
  let all = [reading.text, ...reading.attrs.filter((a) => !/^\s*[{[]/.test(a))].join('\n');
  // Content and names come out whole (a memory, a model name), never as a piece of a word.
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const c of [...content, ...NAMES].sort((a, b) => b.length - a.length)) all = all.replace(new RegExp(`(?<![\\p{L}\\d])${escape(c)}(?![\\p{L}\\d])`, 'gu'), ' ');
  const found = new Map<string, string>();
  // Words only: a path or a time zone (America/New_York) is a name.
  for (const m of all.matchAll(/(?<![\w/])[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'’-]*(?![\w/])/g)) {
    if (ENGLISH.has(m[0].toLowerCase()) && !found.has(m[0])) found.set(m[0], all.slice(Math.max(0, m.index - 30), m.index + 30).replace(/\s+/g, ' '));
  }
  return [...found].map(([w, around]) => `${w} in “${around}”`);
}

/** A catalog key shown instead of its text ("settings.tabs.keys"). */
const rawKeys = (reading: Reading) => [reading.text, ...reading.attrs].join('\n').match(/\b(common|app|components|errors|chat|sessions|agents|files|webhooks|memories|schedules|usage|settings|webSearch|setup|developer|desktop)\.[a-zA-Z]+(\.[a-zA-Z0-9_]+)*\b/g) ?? [];

/** Opens a route as a link does and waits until the screen has settled (its heading shown, nothing loading, its text still). */
async function openRoute(page: Page, route: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), `#/${route}`);
  await page.locator('main h1').first().waitFor({ state: 'attached', timeout: limit(15_000) });
  let last = '';
  let same = 0;
  await until(`${route} to settle`, async () => {
    const now = await page.evaluate(() => (document.querySelector('[aria-busy="true"]') ? '' : document.body.innerText));
    same = now && now === last ? same + 1 : 0;
    last = now;
    return same >= 2;
  });
}

let fake: FakeServer;
let serve: ServeProcess | undefined;
let pt: Browser;
let en: Browser;
let ptPage: Page;
let enPage: Page;
const ptContent = new Set<string>();
const enContent = new Set<string>();
const problems: string[] = [];

describe('Agent Desk in Brazilian Portuguese and in English', () => {
  const it = e2eSetup(async (own) => {
    ensureRendererBuilt();
    fake = own(await startFakeOpenAI({ tokens: ['Tudo', ' certo.'] }));
    serve = await startServe(fakeProviderEnv(fake));
    own({ close: async () => serve?.close() });
    pt = own(await launchBrowser({ locale: 'pt-BR' }));
    en = own(await launchBrowser({ locale: 'en-US' }));
    ptPage = await pt.context.newPage();
    collectContent(ptPage, ptContent);
    recordProblems(ptPage, problems);
    await ptPage.goto(serve.loginUrl);
    await ptPage.locator('main h1').first().waitFor({ timeout: limit(20_000) });
    // The same person in a browser set to English: the session cookie, not a second login link.
    await en.context.addCookies(await pt.context.cookies());
    enPage = await en.context.newPage();
    collectContent(enPage, enContent);
    recordProblems(enPage, problems);

    // Something on every screen that shows dates and numbers: a run (credits), a schedule (its next run), a key used once, a memory.
    const agents = (await pageFetch(ptPage, 'GET', '/api/agents')).json.data as { id: number; type: string }[];
    const chat = agents.find((a) => a.type === 'chat') ?? agents[0];
    const run = await pageFetch(ptPage, 'POST', `/api/agents/${chat.id}/execute`, { messages: [{ role: 'user', content: 'Olá' }], wait_execution: true });
    expect(run.status).toBe(200);
    expect((await pageFetch(ptPage, 'POST', '/api/schedules', { agent_id: chat.id, name: 'Resumo diário', cron: '30 9 * * 1-5', timezone: 'America/Sao_Paulo', messages: [{ role: 'user', content: 'Resuma as notícias.' }] })).status).toBeLessThan(300);
    const key = (await pageFetch(ptPage, 'POST', '/api/keys', { name: 'n8n' })).json.key as string;
    expect((await fetch(`${serve.url}/api/agents`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    expect((await pageFetch(ptPage, 'POST', '/api/memories', { memory: 'Prefiro respostas curtas.' })).status).toBeLessThan(300);
  });

  it('walks every route in a pt-BR browser: Portuguese only, nothing cut off at 1280 or 1024, screenshots of each', async () => {
    await until('the app to speak Portuguese', () => ptPage.evaluate(() => document.documentElement.lang === 'pt-BR'));
    expect(await ptPage.getByRole('navigation', { name: 'Telas' }).getByRole('link').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining('Configurações'), expect.stringContaining('Memórias'), expect.stringContaining('Agendamentos')]),
    );
    const faults: string[] = [];
    for (const route of ROUTES) {
      for (const width of [1280, 1024]) {
        await ptPage.setViewportSize({ width, height: width === 1280 ? 800 : 700 });
        await openRoute(ptPage, route);
        const reading = await readPage(ptPage);
        const english = englishIn(reading, ptContent);
        if (english.length) faults.push(`${route} @${width}: English ${english.join(', ')}`);
        const keys = rawKeys(reading);
        if (keys.length) faults.push(`${route} @${width}: raw keys ${keys.join(', ')}`);
        if (reading.clipped.length) faults.push(`${route} @${width}: cut off: ${reading.clipped.join(' | ')}`);
        if (reading.sideways) faults.push(`${route} @${width}: scrolls sideways`);
        await shot(ptPage, `i18n-pt-${route.replace('/', '-')}-${width}`);
      }
    }
    await ptPage.setViewportSize({ width: 1280, height: 800 });
    // The new Language tab in both themes too.
    await openRoute(ptPage, 'settings/language');
    await shotSizesAndThemes(ptPage, 'i18n-pt-language');
    expect(faults).toEqual([]);
    expect(problems).toEqual([]);
  }, limit(300_000));

  it('first start with no model: the setup panel in Portuguese, nothing cut off', async () => {
    // A fresh data dir where nothing serves a model yet; "LM Studio" is the fake.
    const first = await startServe({ AGENT_DESK_OLLAMA_AUTODETECT: '0', AGENT_DESK_PROBE_OLLAMA_URL: await nothingAt(), AGENT_DESK_PROBE_LMSTUDIO_URL: fake.origin });
    const browser = await launchBrowser({ locale: 'pt-BR' });
    try {
      const page = await browser.context.newPage();
      const content = new Set<string>();
      collectContent(page, content);
      recordProblems(page, problems);
      await page.goto(first.loginUrl);
      await page.getByTestId('setup-panel').waitFor({ timeout: limit(20_000) });
      await page.getByRole('heading', { name: 'Conecte um modelo para começar a conversar' }).waitFor();
      await page.getByText(/rodando · \d+ modelos?/).waitFor({ timeout: limit(15_000) });
      const faults: string[] = [];
      for (const width of [1280, 1024]) {
        await page.setViewportSize({ width, height: width === 1280 ? 800 : 700 });
        await openRoute(page, 'chat');
        const reading = await readPage(page);
        faults.push(...englishIn(reading, content), ...rawKeys(reading), ...reading.clipped.map((c) => `cut off: ${c}`), ...(reading.sideways ? ['scrolls sideways'] : []));
        await shot(page, `i18n-pt-setup-${width}`);
      }
      expect(faults).toEqual([]);
    } finally {
      await browser.close();
      await first.close();
    }
    expect(problems).toEqual([]);
  }, limit(120_000));

  it('writes dates and numbers as each language does', async () => {
    const read = async (page: Page) => {
      await openRoute(page, 'usage/7d');
      const credits = (await page.getByTestId('usage-credits').textContent())!.trim();
      await openRoute(page, 'settings/keys');
      const row = page.locator('[data-testid="key-row"][data-name="n8n"]');
      const created = (await row.getByTestId('key-created').textContent())!.trim();
      const lastUsed = (await row.getByTestId('key-last-used').textContent())!.trim();
      await openRoute(page, 'schedules');
      const timing = (await page.getByTestId('schedule-timing').first().textContent())!.trim();
      return { credits, created, lastUsed, timing };
    };
    await enPage.goto(`${serve!.url}/#/usage/7d`);
    await until('the app to speak English', () => enPage.evaluate(() => document.documentElement.lang === 'en'));
    const ptFacts = await read(ptPage);
    const enFacts = await read(enPage);
    // The same credits: a decimal comma in Portuguese, a point in English.
    expect(ptFacts.credits).toMatch(/^\d+,\d+$/);
    expect(enFacts.credits).toBe(ptFacts.credits.replace(',', '.'));
    const year = new Date().getFullYear();
    expect(ptFacts.created).toMatch(new RegExp(`^\\d{1,2} de [a-zç]{3}\\.? de ${year}, \\d{2}:\\d{2}$`));
    expect(enFacts.created).toMatch(new RegExp(`^[A-Z][a-z]{2} \\d{1,2}, ${year}, \\d{1,2}:\\d{2}\\s?[AP]M$`));
    expect(ptFacts.lastUsed).toMatch(/^(agora|há \d+ (segundos|minutos?))$/);
    expect(enFacts.lastUsed).toMatch(/^(now|\d+ (seconds|minutes?) ago)$/);
    expect(ptFacts.timing).toMatch(/^De segunda a sexta às 09:30, America\/Sao_Paulo/);
    expect(enFacts.timing).toMatch(/^Weekdays at 09:30, America\/Sao_Paulo/);
    // Nothing English came through in the en-US browser's words either way round: the sidebar speaks English.
    expect(await enPage.getByRole('navigation', { name: 'Screens' }).getByRole('link').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('Settings')]));
    expect(problems).toEqual([]);
  }, limit(120_000));

  it('switches language in Settings without a reload, keeps it across a reload and a new profile, and goes back to the system’s', async () => {
    await openRoute(enPage, 'settings/language');
    // A mark on this document: gone if the page reloads.
    await enPage.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await enPage.getByTestId('language-select').selectOption('pt-BR');
    await enPage.getByRole('heading', { level: 1, name: 'Configurações' }).waitFor({ timeout: limit(10_000) });
    expect(await enPage.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(await enPage.getByRole('navigation', { name: 'Telas' }).getByRole('link').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('Configurações')]));
    expect((await pageFetch(enPage, 'GET', '/api/settings/app')).json).toEqual({ locale: 'pt-BR' });

    // Kept across a reload (the first paint already in Portuguese).
    await enPage.reload();
    await enPage.getByRole('heading', { level: 1, name: 'Configurações' }).waitFor({ timeout: limit(15_000) });
    expect(await enPage.evaluate(() => document.documentElement.lang)).toBe('pt-BR');

    // A new profile of an English browser (nothing stored locally) follows the platform's setting.
    const fresh = await launchBrowser({ locale: 'en-US' });
    try {
      await fresh.context.addCookies(await en.context.cookies());
      const page = await fresh.context.newPage();
      await page.goto(`${serve!.url}/#/settings/language`);
      await page.getByRole('heading', { level: 1, name: 'Configurações' }).waitFor({ timeout: limit(15_000) });
    } finally {
      await fresh.close();
    }

    // Back to the system's language: English in this browser, at once.
    await enPage.getByTestId('language-select').selectOption('system');
    await enPage.getByRole('heading', { level: 1, name: 'Settings' }).waitFor({ timeout: limit(10_000) });
    expect((await pageFetch(enPage, 'GET', '/api/settings/app')).json).toEqual({ locale: null });
    expect(await enPage.getByTestId('language-select').locator('option:checked').innerText()).toBe('Same as the system: English');
    expect(problems).toEqual([]);
  }, limit(120_000));
});
