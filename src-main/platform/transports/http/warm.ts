/**
 * First-use work of the request path, done once after listen, a small step per turn of the event
 * loop, instead of inside the first request that needs it (the first execution paid all of it in
 * one turn): the first request's middleware and error paths, and each zod schema's parser (built,
 * and for objects a fast path compiled, on its first parse).
 */

import { nextTurn } from '../../kernel/turns.js';

interface Parsable {
  safeParse(input: unknown): unknown;
}

/** What is used of the app: its in-process `request` and the route definitions OpenAPI is made from. */
export interface WarmableApp {
  request(path: string): Response | Promise<Response>;
  openAPIRegistry?: { definitions: readonly unknown[] };
}

/** Schemas are parsed for at most this long per turn (a large object's first parse compiles its fast path: a few ms). */
const TURN_BUDGET_MS = 3;

const isParsable = (s: unknown): s is Parsable => typeof (s as Parsable | null)?.safeParse === 'function';

/** The request schemas (JSON body, query, path) of the app's routes. */
export function requestSchemas(app: WarmableApp): Parsable[] {
  const out: Parsable[] = [];
  for (const d of app.openAPIRegistry?.definitions ?? []) {
    const def = d as { type?: string; route?: { request?: { body?: { content?: Record<string, { schema?: unknown }> }; query?: unknown; params?: unknown } } };
    if (def.type !== 'route') continue;
    const req = def.route?.request;
    for (const s of [req?.body?.content?.['application/json']?.schema, req?.query, req?.params]) if (isParsable(s)) out.push(s);
  }
  return out;
}

/** Resolves when done; never throws (a step that fails only leaves its cost to the first request). */
export async function warmRequestPath(app: WarmableApp): Promise<void> {
  try {
    await nextTurn();
    // This path answers 401 or 404 without touching data.
    await app.request('/api/__warm-up__');
    const schemas = requestSchemas(app);
    let i = 0;
    while (i < schemas.length) {
      await nextTurn();
      // `{}`: objects build their shape and fast path on the first object they see.
      const start = performance.now();
      while (i < schemas.length && performance.now() - start < TURN_BUDGET_MS) schemas[i++].safeParse({});
    }
  } catch {
    // Warming is an optimisation.
  }
}
