/**
 * First-use work of the request path, done once after listen, a small step per turn of the event
 * loop, instead of inside the first request that needs it (the first execution paid all of it in
 * one turn): the router compiles every route into its matcher on the first request, and each zod
 * schema builds its parser (and, for objects, compiles a fast path) on its first parse.
 */

interface Parsable {
  safeParse(input: unknown): unknown;
}

/** What is used of the app: its in-process `request` and the route definitions OpenAPI is made from. */
export interface WarmableApp {
  request(path: string): Response | Promise<Response>;
  openAPIRegistry?: { definitions: readonly unknown[] };
}

/** Schemas parsed per turn: each first parse costs well under a millisecond. */
const PER_TURN = 4;

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

const nextTurn = () => new Promise<void>((r) => setImmediate(r));

/** Resolves when done; never throws (a step that fails only leaves its cost to the first request). */
export async function warmRequestPath(app: WarmableApp): Promise<void> {
  try {
    await nextTurn();
    // Any path builds the whole matcher; this one answers 401 or 404 without touching data.
    await app.request('/api/__warm-up__');
    const schemas = requestSchemas(app);
    for (let i = 0; i < schemas.length; i += PER_TURN) {
      await nextTurn();
      // `{}`: objects build their shape and fast path on the first object they see.
      for (const s of schemas.slice(i, i + PER_TURN)) s.safeParse({});
    }
  } catch {
    // Warming is an optimisation.
  }
}
