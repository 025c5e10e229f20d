/**
 * Shape B pagination math and URLs (spec "Pagination shapes", CONTRACT.md "Pagination"), over
 * GET /api/webhooks with per_page=1 so one webhook is one page. The expected link windows are
 * Laravel's (onEachSide 3): every page up to 13 pages, beyond that a window with `...` gaps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from './helpers.js';
import { expectShapeB, expectWebhook } from './spec-shapes.js';

const BASE = 'http://127.0.0.1:8787/api/webhooks';
const url = (page: number) => `${BASE}?page=${page}&per_page=1`;

/** The labels of `links` between previous and next. */
const middle = (links: any[]) => links.slice(1, -1).map((l) => l.label);

describe('shape B pagination', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));
  const addWebhooks = (n: number) => {
    for (let i = 0; i < n; i++) p.services.webhooks.create(1, '1', { url: `http://localhost:9/${i}`, method: 'POST' });
  };

  describe('13 pages: every page is listed', () => {
    beforeAll(() => addWebhooks(13));

    it('first page', async () => {
      const r = await call(p, 'GET', '/api/webhooks?page=1&per_page=1');
      expectShapeB(r.json);
      r.json.data.forEach(expectWebhook);
      expect(r.json).toMatchObject({
        current_page: 1, from: 1, to: 1, total: 13, last_page: 13, per_page: 1, path: BASE,
        first_page_url: url(1), last_page_url: url(13), prev_page_url: null, next_page_url: url(2),
      });
      expect(middle(r.json.links)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13']);
      expect(r.json.links[0]).toEqual({ url: null, label: 'pagination.previous', active: false });
      expect(r.json.links.at(-1)).toEqual({ url: url(2), label: 'pagination.next', active: false });
      expect(r.json.links.filter((l: any) => l.active)).toEqual([{ url: url(1), label: '1', active: true }]);
      r.json.links.slice(1, -1).forEach((l: any) => expect(l.url).toBe(url(Number(l.label))));
    });

    it('middle page', async () => {
      const r = await call(p, 'GET', '/api/webhooks?page=7&per_page=1');
      expect(r.json).toMatchObject({ current_page: 7, from: 7, to: 7, prev_page_url: url(6), next_page_url: url(8) });
      expect(r.json.links[0].url).toBe(url(6));
      expect(r.json.links.at(-1).url).toBe(url(8));
      expect(r.json.links.filter((l: any) => l.active).map((l: any) => l.label)).toEqual(['7']);
    });

    it('last page', async () => {
      const r = await call(p, 'GET', '/api/webhooks?page=13&per_page=1');
      expect(r.json).toMatchObject({ current_page: 13, from: 13, to: 13, prev_page_url: url(12), next_page_url: null });
      expect(r.json.links.at(-1)).toEqual({ url: null, label: 'pagination.next', active: false });
    });

    it('past the end: empty data, true totals, from/to null', async () => {
      const r = await call(p, 'GET', '/api/webhooks?page=20&per_page=1');
      expect(r.status).toBe(200);
      expectShapeB(r.json);
      expect(r.json).toMatchObject({ current_page: 20, data: [], from: null, to: null, total: 13, last_page: 13, next_page_url: null, last_page_url: url(13) });
      expect(r.json.links.filter((l: any) => l.active)).toEqual([]);
    });

    it('a partial last page: from/to are item positions', async () => {
      const r = await call(p, 'GET', '/api/webhooks?page=3&per_page=5');
      expect(r.json).toMatchObject({ current_page: 3, from: 11, to: 13, total: 13, last_page: 3, per_page: 5 });
      expect(r.json.data).toHaveLength(3);
    });

    it('pages partition the list in order with no repeats', async () => {
      const seen: number[] = [];
      for (let page = 1; page <= 3; page++) seen.push(...(await call(p, 'GET', `/api/webhooks?page=${page}&per_page=5`)).json.data.map((w: any) => w.id));
      const all = (await call(p, 'GET', '/api/webhooks?per_page=100')).json.data.map((w: any) => w.id);
      expect(seen).toEqual(all);
      expect(new Set(all).size).toBe(13);
    });
  });

  describe('20 pages: windows with `...`', () => {
    beforeAll(() => addWebhooks(7));
    const cases: [number, (number | '...')[]][] = [
      [1, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, '...', 19, 20]],
      [7, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, '...', 19, 20]],
      [8, [1, 2, '...', 5, 6, 7, 8, 9, 10, 11, '...', 19, 20]],
      [10, [1, 2, '...', 7, 8, 9, 10, 11, 12, 13, '...', 19, 20]],
      [13, [1, 2, '...', 10, 11, 12, 13, 14, 15, 16, '...', 19, 20]],
      [14, [1, 2, '...', 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]],
      [20, [1, 2, '...', 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]],
    ];
    for (const [page, want] of cases) {
      it(`page ${page}`, async () => {
        const r = await call(p, 'GET', `/api/webhooks?page=${page}&per_page=1`);
        expectShapeB(r.json);
        expect(r.json.last_page).toBe(20);
        expect(middle(r.json.links)).toEqual(want.map(String));
        for (const l of r.json.links.slice(1, -1)) {
          if (l.label === '...') expect(l).toEqual({ url: null, label: '...', active: false });
          else expect(l).toEqual({ url: url(Number(l.label)), label: l.label, active: Number(l.label) === page });
        }
      });
    }
  });
});
