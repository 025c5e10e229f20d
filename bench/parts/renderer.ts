/**
 * Renderer figures: the initial JS the browser must load before the app runs (gzip), and the
 * time from navigation to an interactive chat (agent and its questions loaded, input ready) in
 * Chromium against a real `serve`. Targets: ≤ 400 KB gzip, ≤ 500 ms.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { BenchPart } from '../run';
import { ensureRendererBuilt, OUT } from '../../test/e2e/support/build';
import { startServe } from '../../test/e2e/support/server';
import { launchBrowser } from '../../test/e2e/support/browser';
import { startFakeOpenAI } from '../../test/fixtures/fake-openai';

const gz = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

/** Scripts index.html loads at start (entry and modulepreloads); every other chunk is lazy. */
function jsSizes() {
  const html = fs.readFileSync(path.join(OUT, 'index.html'), 'utf8');
  const initial = new Set([...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]));
  let initialGz = 0;
  let lazyGz = 0;
  for (const f of fs.readdirSync(path.join(OUT, 'assets'))) {
    if (!f.endsWith('.js')) continue;
    const size = gz(path.join(OUT, 'assets', f));
    if (initial.has(`assets/${f}`)) initialGz += size;
    else lazyGz += size;
  }
  const cssGz = fs
    .readdirSync(path.join(OUT, 'assets'))
    .filter((f) => f.endsWith('.css'))
    .reduce((s, f) => s + gz(path.join(OUT, 'assets', f)), 0);
  return { initialGz, lazyGz, cssGz, initialFiles: initial.size };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const part: BenchPart = {
  name: 'renderer',
  async run() {
    ensureRendererBuilt();
    const sizes = jsSizes();
    const fake = await startFakeOpenAI({ reply: 'ok' });
    const serve = await startServe({ AGENT_DESK_OPENAI_BASE_URL: fake.url });
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      const ready = async () => {
        await page.waitForFunction(() => {
          const input = document.querySelector<HTMLTextAreaElement>('#chat-input');
          return !!document.querySelector('#q-model') && !!input && !input.disabled;
        }, undefined, { timeout: 30_000 });
        // Milliseconds since this document's navigation started.
        return page.evaluate(() => performance.now());
      };
      await page.goto(serve.loginUrl);
      const cold = await ready();
      const warm: number[] = [];
      for (let i = 0; i < 7; i++) {
        await page.goto(`${serve.url}/#/chat`, { waitUntil: 'commit' });
        await page.reload({ waitUntil: 'commit' });
        warm.push(await ready());
      }
      // Baseline: the same server answering a static page of its own (no app), in the same browser.
      const base: number[] = [];
      for (let i = 0; i < 7; i++) {
        await page.goto(`${serve.url}/api/docs`, { waitUntil: 'load' });
        base.push(await page.evaluate(() => performance.now()));
      }
      const tti = median(warm);
      return {
        initial_js_gzip_kb: +(sizes.initialGz / 1024).toFixed(1),
        initial_js_target_kb: 400,
        initial_js_within_target: sizes.initialGz <= 400 * 1024,
        initial_js_files: sizes.initialFiles,
        lazy_js_gzip_kb: +(sizes.lazyGz / 1024).toFixed(1),
        css_gzip_kb: +(sizes.cssGz / 1024).toFixed(1),
        first_interactive_chat_ms_first_visit: Math.round(cold),
        first_interactive_chat_ms_median: Math.round(tti),
        first_interactive_chat_target_ms: 500,
        first_interactive_chat_within_target: tti <= 500,
        static_page_load_ms_median: Math.round(median(base)),
        chat_vs_static_page_ratio: +(tti / Math.max(1, median(base))).toFixed(2),
      };
    } finally {
      await browser.close();
      await serve.close();
      await fake.close();
    }
  },
};

export default part;
