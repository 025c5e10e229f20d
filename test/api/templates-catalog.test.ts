import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from './helpers.js';
import type { CatalogTemplate } from '../../src-main/platform/modules/agents/templates.js';

type Stamped = { created_at: number; updated_at: number; title: string };

describe('the templates catalog refresh (start-up upsert)', () => {
  let p: ReturnType<typeof makePlatform>;
  const stamps = (id: string) => p.db.prepare<[string], Stamped>('SELECT created_at, updated_at, title FROM templates WHERE id = ?').get(id);
  const tpl = (id: string, title: string): CatalogTemplate => ({ id, title, description: `About ${title}`, type: 'chat', questions: [{ type: 'string', name: 'q', description: 'Q', required: false }] });

  beforeAll(() => {
    p = makePlatform();
  });
  afterAll(async () => {
    await closePlatform(p);
  });

  it('inserts new templates, rewrites changed ones keeping created_at, and leaves unchanged ones untouched', async () => {
    p.services.templates.upsertCatalog([tpl('t-keep', 'Keep'), tpl('t-change', 'Before')]);
    const keep1 = stamps('t-keep')!;
    const change1 = stamps('t-change')!;
    expect(keep1.created_at).toBe(keep1.updated_at);

    p.services.templates.upsertCatalog([tpl('t-keep', 'Keep'), tpl('t-change', 'Zyxwvu after'), tpl('t-new', 'New')]);
    expect(stamps('t-keep')).toEqual(keep1);
    const change2 = stamps('t-change')!;
    expect(change2.title).toBe('Zyxwvu after');
    expect(change2.created_at).toBe(change1.created_at);
    expect(change2.updated_at).toBeGreaterThan(change1.updated_at);
    expect(stamps('t-new')?.title).toBe('New');

    expect(p.services.templates.find('t-change')).toMatchObject({ id: 't-change', title: 'Zyxwvu after', type: 'chat', questions: [{ name: 'q' }] });
    expect(p.services.templates.find('t-missing')).toBeNull();
    const res = await call(p, 'GET', '/api/resources?q=ZYXWVU&per_page=100');
    expect(res.status).toBe(200);
    expect(res.json.data.map((r: { id: string }) => r.id)).toEqual(['t-change']);
  });
});
