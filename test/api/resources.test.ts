import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from './helpers.js';
import { expect422, expectResource, expectShapeA } from './spec-shapes.js';

const catalog = JSON.parse(fs.readFileSync(path.resolve('resources/catalog.json'), 'utf8')) as {
  templates: { id: string; title: string; description: string; long_description?: string | null; type: string }[];
};

describe('GET /api/resources (templates, shape A)', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));
  const n = catalog.templates.length;

  it('seeds at least a dozen templates covering chat, image, text and video', async () => {
    const r = await call(p, 'GET', '/api/resources?per_page=100');
    expect(r.status).toBe(200);
    expectShapeA(r.json);
    expect(r.json.meta.total).toBeGreaterThanOrEqual(12);
    expect(r.json.meta.total).toBe(n);
    r.json.data.forEach(expectResource);
    const types = new Set(catalog.templates.map((t) => t.type));
    expect([...types].sort()).toEqual(['chat', 'image', 'text', 'video']);
    expect(r.json.data.map((d: any) => d.id).sort()).toEqual(catalog.templates.map((t) => t.id).sort());
  });

  it('defaults to page 1 of 15', async () => {
    const r = await call(p, 'GET', '/api/resources');
    expect(r.json.meta).toEqual({ current_page: 1, from: 1, last_page: Math.ceil(n / 15), per_page: 15, to: Math.min(15, n), total: n });
  });

  it('pages: first, middle, last and past the end', async () => {
    const per = 4;
    const last = Math.ceil(n / per);
    const all = (await call(p, 'GET', '/api/resources?per_page=100')).json.data.map((d: any) => d.id);
    const seen: string[] = [];
    for (let page = 1; page <= last; page++) {
      const r = await call(p, 'GET', `/api/resources?page=${page}&per_page=${per}`);
      const count = page < last ? per : n - per * (last - 1);
      expect(r.json.meta).toEqual({ current_page: page, from: (page - 1) * per + 1, last_page: last, per_page: per, to: (page - 1) * per + count, total: n });
      expect(r.json.data).toHaveLength(count);
      seen.push(...r.json.data.map((d: any) => d.id));
    }
    expect(seen).toEqual(all);
    const past = await call(p, 'GET', `/api/resources?page=${last + 1}&per_page=${per}`);
    expect(past.status).toBe(200);
    expect(past.json).toEqual({ data: [], meta: { current_page: last + 1, from: null, last_page: last, per_page: per, to: null, total: n } });
  });

  it('filters by type', async () => {
    for (const type of ['chat', 'image', 'text', 'video']) {
      const r = await call(p, 'GET', `/api/resources?type=${type}&per_page=100`);
      const want = catalog.templates.filter((t) => t.type === type).map((t) => t.id).sort();
      expect(r.json.data.map((d: any) => d.id).sort()).toEqual(want);
      expect(r.json.meta.total).toBe(want.length);
    }
  });

  it('q searches title, description and long description, case-insensitively', async () => {
    const t = catalog.templates.find((x) => x.long_description)!;
    const word = t.title.split(' ')[0].toUpperCase();
    const r = await call(p, 'GET', `/api/resources?q=${encodeURIComponent(word)}&per_page=100`);
    expect(r.json.data.map((d: any) => d.id)).toContain(t.id);
    const want = catalog.templates.filter((x) => [x.title, x.description, x.long_description ?? ''].some((s) => s.toLowerCase().includes(word.toLowerCase())));
    expect(r.json.meta.total).toBe(want.length);
    // A word found only in a template's long description still finds that template.
    const hit = catalog.templates
      .flatMap((x) => (x.long_description ?? '').split(/[^A-Za-z]+/).filter((w) => w.length >= 6).map((w) => ({ x, w: w.toLowerCase() })))
      .find(({ x, w }) => !`${x.title} ${x.description}`.toLowerCase().includes(w))!;
    expect(hit).toBeDefined();
    const r2 = await call(p, 'GET', `/api/resources?q=${encodeURIComponent(hit.w)}&per_page=100`);
    expect(r2.json.data.map((d: any) => d.id)).toContain(hit.x.id);
    const none = await call(p, 'GET', '/api/resources?q=zzzz-no-such-words-zzzz');
    expect(none.json).toEqual({ data: [], meta: { current_page: 1, from: null, last_page: 1, per_page: 15, to: null, total: 0 } });
  });

  it('refuses bad paging and an unknown type with 422', async () => {
    expect422(await call(p, 'GET', '/api/resources?page=0'), 'page', 'The page field must be at least 1.');
    expect422(await call(p, 'GET', '/api/resources?page=-3'), 'page');
    expect422(await call(p, 'GET', '/api/resources?page=abc'), 'page');
    expect422(await call(p, 'GET', '/api/resources?per_page=0'), 'per_page', 'The per page field must be at least 1.');
    expect422(await call(p, 'GET', '/api/resources?per_page=101'), 'per_page', 'The per page field must not be greater than 100.');
    expect422(await call(p, 'GET', '/api/resources?type=audio'), 'type', 'The selected type is invalid.');
    expect((await call(p, 'GET', '/api/resources?per_page=100')).status).toBe(200);
  });
});
