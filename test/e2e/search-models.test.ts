/**
 * Settings → Search models in Chromium against `serve`, in pt-BR and en-US: the built-in search
 * model says plainly that it understands English best, and the catalog's multilingual model and
 * reranker are offered with their size and licence, to download (the reranker stays off until
 * it is downloaded). Screenshots at 1280 and 1024, light and dark.
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { ensureRendererBuilt } from './support/build';
import { startServe, type ServeProcess } from './support/server';
import { recordProblems } from './support/page';
import { launchBrowser } from './support/browser';
import { e2eSetup } from './support/suite';
import { shotSizesAndThemes } from './support/shots';
import { limit } from '../fixtures/until.js';

describe('Settings → Search models', () => {
  let serve: ServeProcess;
  let pt: Page;
  let en: Page;
  const problems: string[] = [];
  const it = e2eSetup(async (own) => {
    ensureRendererBuilt();
    serve = await startServe({ AGENT_DESK_OLLAMA_AUTODETECT: '0' });
    own({ close: async () => serve?.close() });
    const ptBrowser = own(await launchBrowser({ locale: 'pt-BR' }));
    const enBrowser = own(await launchBrowser({ locale: 'en-US' }));
    pt = await ptBrowser.context.newPage();
    recordProblems(pt, problems);
    await pt.goto(serve.loginUrl);
    await pt.locator('main h1').first().waitFor({ timeout: limit(20_000) });
    await enBrowser.context.addCookies(await ptBrowser.context.cookies());
    en = await enBrowser.context.newPage();
    recordProblems(en, problems);
  });

  it('in Portuguese: the built-in model understands English best; BGE-M3 is offered with size and licence', async () => {
    await pt.goto(`${serve.url}/#/settings/searchModels`);
    const panel = pt.getByTestId('search-model-panel');
    await panel.waitFor({ timeout: limit(20_000) });
    await expect(pt.getByRole('tab', { name: 'Modelos de busca' }).getAttribute('aria-selected')).resolves.toBe('true');
    await expect(panel.getByTestId('english-best').innerText()).resolves.toContain('entende melhor o inglês');
    const item = panel.locator('li', { hasText: 'BGE-M3' });
    await expect(item.innerText()).resolves.toMatch(/MB · licença MIT/);
    await expect(item.getByRole('button', { name: 'Baixar' }).count()).resolves.toBe(1);
    await expect(panel.getByRole('checkbox').isDisabled()).resolves.toBe(true);
    await shotSizesAndThemes(pt, 'settings-search-models-pt');
    expect(problems).toEqual([]);
  }, limit(120_000));

  it('in English: the same panel says so in English', async () => {
    await en.goto(`${serve.url}/#/settings/searchModels`);
    const panel = en.getByTestId('search-model-panel');
    await panel.waitFor({ timeout: limit(20_000) });
    await expect(panel.getByTestId('english-best').innerText()).resolves.toContain('understands English best');
    await expect(panel.getByRole('status').innerText()).resolves.toContain('Ready');
    await shotSizesAndThemes(en, 'settings-search-models-en');
    expect(problems).toEqual([]);
  }, limit(120_000));
});
