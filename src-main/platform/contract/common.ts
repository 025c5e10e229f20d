import { z } from 'zod';

export const ErrorBody = z.object({ message: z.string() }).meta({ id: 'Error' });
export const ValidationErrorBody = z
  .object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())) })
  .meta({ id: 'ValidationError' });

/** An integer from a query string: "abc" and "1.5" fail, "" counts as absent. */
export const queryInt = () =>
  z.preprocess((v) => (v === '' || v === undefined ? undefined : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v), z.number().int());

/** A boolean from a query string or JSON: true/false/1/0. */
export const looseBool = () =>
  z.preprocess((v) => {
    if (typeof v === 'string') {
      const s = v.trim().toLowerCase();
      if (s === 'true' || s === '1') return true;
      if (s === 'false' || s === '0' || s === '') return false;
    }
    if (v === 1) return true;
    if (v === 0) return false;
    return v;
  }, z.boolean());

/** `page` and `per_page` with the bounds of CONTRACT.md "Pagination". */
export function pageQuery(opts: { maxPerPage: number; defaultPerPage: number }) {
  return z.object({
    page: queryInt().pipe(z.number().int().min(1)).optional().default(1),
    per_page: queryInt().pipe(z.number().int().min(1).max(opts.maxPerPage)).optional().default(opts.defaultPerPage),
  });
}

export const PageMeta = z.object({
  current_page: z.number().int(),
  from: z.number().int().nullable(),
  last_page: z.number().int(),
  per_page: z.number().int(),
  to: z.number().int().nullable(),
  total: z.number().int(),
});

/** Shape A: data plus meta. */
export const shapeA = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: PageMeta });

export const PageLink = z.object({ url: z.string().nullable(), label: z.string(), active: z.boolean() });

/** Shape B: Laravel's flat length-aware paginator. */
export const shapeB = <T extends z.ZodType>(item: T) =>
  z.object({
    current_page: z.number().int(),
    data: z.array(item),
    first_page_url: z.string(),
    from: z.number().int().nullable(),
    last_page: z.number().int(),
    last_page_url: z.string(),
    links: z.array(PageLink),
    next_page_url: z.string().nullable(),
    path: z.string(),
    per_page: z.number().int(),
    prev_page_url: z.string().nullable(),
    to: z.number().int().nullable(),
    total: z.number().int(),
  });

/** Shape C: message, a named array, small meta. */
export const ShapeCMeta = z.object({ current_page: z.number().int(), last_page: z.number().int(), total: z.number().int() });

export const IdPath = z.object({ id: z.string() });

/** An absolute http(s) URL (other schemes refused); `credentials: false` also refuses `user:pass@`. */
export function httpUrl(message: string, opts: { credentials?: boolean } = {}) {
  return z
    .string()
    .max(2048)
    .refine((s) => {
      try {
        const u = new URL(s);
        return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname && (opts.credentials !== false || (!u.username && !u.password));
      } catch {
        return false;
      }
    }, message);
}
