import type { Context } from 'hono';
import type { Page } from '../../kernel/context.js';

function bounds<T>(p: Page<T>) {
  const lastPage = Math.max(1, Math.ceil(p.total / p.perPage));
  const offset = (p.page - 1) * p.perPage;
  const from = p.items.length ? offset + 1 : null;
  const to = p.items.length ? offset + p.items.length : null;
  return { lastPage, from, to };
}

/** Shape A: `data` plus `meta`. */
export function shapeA<T>(p: Page<T>) {
  const { lastPage, from, to } = bounds(p);
  return { data: p.items, meta: { current_page: p.page, from, last_page: lastPage, per_page: p.perPage, to, total: p.total } };
}

/** Shape C: `message`, a named array, `meta` {current_page, last_page, total}. */
export function shapeC<T, K extends string>(message: string, key: K, p: Page<T>) {
  const { lastPage } = bounds(p);
  return { message, [key]: p.items, meta: { current_page: p.page, last_page: lastPage, total: p.total } } as { message: string; meta: { current_page: number; last_page: number; total: number } } & Record<K, T[]>;
}

type Link = { url: string | null; label: string; active: boolean };

/** Laravel's UrlWindow with onEachSide = 3: every page up to 13, else a window with `...` gaps. */
export function pageWindow(current: number, last: number): (number | '...')[] {
  const onEachSide = 3;
  const range = (a: number, b: number) => Array.from({ length: Math.max(0, b - a + 1) }, (_, i) => a + i);
  if (last < onEachSide * 2 + 8) return range(1, last);
  const window = onEachSide + 4;
  const start = [1, 2];
  const finish = [last - 1, last];
  if (current <= window) return [...range(1, window + onEachSide), '...', ...finish];
  if (current > last - window) return [...start, '...', ...range(last - (window + (onEachSide - 1)), last)];
  return [...start, '...', ...range(current - onEachSide, current + onEachSide), '...', ...finish];
}

/** Shape B: Laravel's flat paginator, URLs absolute from the request's own scheme and Host. */
export function shapeB<T>(c: Context, p: Page<T>) {
  const { lastPage, from, to } = bounds(p);
  const reqUrl = new URL(c.req.url);
  // The Host header (checked by the host guard), never the request line: an absolute-form
  // request line (GET http://elsewhere/...) must not choose where the links point.
  const host = c.req.header('host') || reqUrl.host;
  const path = `${reqUrl.protocol}//${host}${reqUrl.pathname}`;
  const others = [...reqUrl.searchParams.entries()].filter(([k]) => k !== 'page');
  const url = (n: number) => `${path}?${new URLSearchParams([['page', String(n)], ...others]).toString()}`;
  const prev = p.page > 1 ? url(p.page - 1) : null;
  const next = p.page < lastPage ? url(p.page + 1) : null;
  const links: Link[] = [
    { url: prev, label: 'pagination.previous', active: false },
    ...pageWindow(p.page, lastPage).map((n) => (n === '...' ? { url: null, label: '...', active: false } : { url: url(n), label: String(n), active: n === p.page })),
    { url: next, label: 'pagination.next', active: false },
  ];
  return {
    current_page: p.page,
    data: p.items,
    first_page_url: url(1),
    from,
    last_page: lastPage,
    last_page_url: url(lastPage),
    links,
    next_page_url: next,
    path,
    per_page: p.perPage,
    prev_page_url: prev,
    to,
    total: p.total,
  };
}
