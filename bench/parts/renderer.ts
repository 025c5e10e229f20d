/**
 * Renderer figures: the initial JS the browser must load before the app runs (gzip), and the
 * time from navigation to an interactive chat (agent and its questions loaded, input ready) in
 * Chromium against a real `serve`. Targets: ≤ 400 KB gzip, ≤ 500 ms. And a 500-turn conversation:
 * the time to open it, and the frame rate while scrolling it top to bottom (target ≥ 50 fps).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { BenchPart } from '../run';
import { ensureRendererBuilt, OUT } from '../../test/e2e/support/build';
import { startServe } from '../../test/e2e/support/server';
import { launchBrowser } from '../../test/e2e/support/browser';
import { startFakeOpenAI } from '../../test/fixtures/fake-openai';
import { pageFetch } from '../../test/e2e/support/page';
import type { Page } from 'playwright-core';

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

/** An answer of the length and shape chat answers have: a paragraph, a list and a little code. */
const ANSWER = (n: number) =>
  `Here is answer ${n}. It explains the idea in a short paragraph, with **bold words** and a [link](https://example.com).\n\n- first point of the list\n- second point, a bit longer than the first one\n- third point\n\n\`\`\`js\nconst total = items.reduce((a, b) => a + b, 0);\n\`\`\`\n\nThat is all for turn ${n}.`;

/** A conversation of `turns` turns through the API, each answered before the next; its session id. */
async function longSession(page: Page, turns: number): Promise<number> {
  const agents = (await pageFetch(page, 'GET', '/api/agents?type=chat&per_page=100')).json.data as { id: number; title: string }[];
  const agent = agents.find((a) => a.title === 'Chat')?.id ?? agents[0].id;
  let root = 0;
  for (let i = 1; i <= turns; i++) {
    const body = { model: 'gpt-4o-mini', temperature: '0', tools: 'no-tools', messages: [{ role: 'user', content: `Question ${i}: tell me about item ${i}` }], wait_execution: true, ...(root ? { root_id: root } : {}) };
    const r = await pageFetch(page, 'POST', `/api/agents/${agent}/execute`, body);
    if (r.status >= 300 || r.json.responses[0].status !== 'succeeded') throw new Error(`turn ${i} failed: ${JSON.stringify(r.json)}`);
    root ||= r.json.responses[0].id;
  }
  return root;
}

/**
 * Opens the session by its URL (from a new chat) and times it until it shows its newest turn at the
 * end of the list (the list draws only the turns near the view); then scrolls the list from top to
 * bottom and back up a step per frame, as a fast wheel does, timing each frame. Each step moves the
 * view by 320 px, so every frame draws what comes into view.
 */
async function openAndScroll(page: Page, base: string, id: number, turns: number): Promise<{ openMs: number; drawn: number; down: Scroll; up: Scroll }> {
  // A fresh document on a new chat: nothing of the last opening kept (place, measured heights).
  await page.goto(`${base}/#/chat`);
  await page.reload();
  await page.waitForSelector('#chat-input', { timeout: 30_000 });
  // Scripts as text: the bench runs through tsx, whose helpers (__name) do not exist in the page.
  const openMs = (await page.evaluate(`(async () => {
    const t0 = performance.now();
    location.hash = '#/chat/${id}';
    await new Promise((resolve) => {
      const check = () => {
        const el = document.querySelector('[data-testid="turns"]');
        const newest = document.querySelector('[data-turn-index="${turns - 1}"]');
        const shown = el && newest && el.getAttribute('aria-busy') !== 'true' && el.scrollHeight - el.scrollTop - el.clientHeight < 2;
        return shown ? resolve() : requestAnimationFrame(check);
      };
      check();
    });
    // The frame that shows them.
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t0;
  })()`)) as number;
  const drawn = (await page.evaluate(`document.querySelectorAll('[data-testid="turn"]').length`)) as number;
  const scroll = (down: boolean) =>
    page.evaluate(`(async () => {
    const el = document.querySelector('[data-testid="turns"]');
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    el.scrollTop = ${down} ? 0 : el.scrollHeight;
    await frame();
    await frame();
    const times = [];
    const start = await frame();
    let last = start;
    let moved = 0;
    const more = () => (${down} ? el.scrollTop + el.clientHeight < el.scrollHeight - 1 : el.scrollTop > 0);
    while (more() && times.length < 3000) {
      const before = el.scrollTop;
      el.scrollTop += ${down} ? 320 : -320;
      moved += Math.abs(el.scrollTop - before);
      const now = await frame();
      times.push(now - last);
      last = now;
    }
    const sorted = [...times].sort((a, b) => a - b);
    return { frames: times.length, px: Math.round(moved), fps: times.length / ((last - start) / 1000), p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0 };
  })()`) as Promise<Scroll>;
  const down = await scroll(true);
  const up = await scroll(false);
  return { openMs, drawn, down, up };
}

interface Scroll {
  frames: number;
  /** how far the view moved, in px */
  px: number;
  fps: number;
  p95: number;
}

const part: BenchPart = {
  name: 'renderer',
  async run() {
    ensureRendererBuilt();
    const sizes = jsSizes();
    const fake = await startFakeOpenAI({ tokens: (b) => [ANSWER(Number(/Question (\d+)/.exec(String(b.messages.at(-1)?.content))?.[1] ?? 0))] });
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
      // A 500-turn conversation: opened, then scrolled top to bottom (twice; the second run counts, caches warm).
      const long = await longSession(page, 500);
      await openAndScroll(page, serve.url, long, 500);
      const big = await openAndScroll(page, serve.url, long, 500);
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
        long_chat_turns: 500,
        long_chat_open_ms: Math.round(big.openMs),
        long_chat_turns_drawn_at_open: big.drawn,
        long_chat_scroll_down_fps: +big.down.fps.toFixed(1),
        long_chat_scroll_down_p95_frame_ms: +big.down.p95.toFixed(1),
        long_chat_scroll_down_frames: big.down.frames,
        long_chat_scroll_down_px: big.down.px,
        long_chat_scroll_up_fps: +big.up.fps.toFixed(1),
        long_chat_scroll_up_p95_frame_ms: +big.up.p95.toFixed(1),
        long_chat_scroll_up_frames: big.up.frames,
        long_chat_scroll_target_fps: 50,
        long_chat_scroll_within_target: Math.min(big.down.fps, big.up.fps) >= 50,
      };
    } finally {
      await browser.close();
      await serve.close();
      await fake.close();
    }
  },
};

export default part;
