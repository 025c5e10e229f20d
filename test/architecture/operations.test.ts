import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Operations are declared once, as data, in contract/: transports/http/operations.ts alone turns
 * them into routes (validation and OpenAPI entry), and the renderer calls them by name.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const OPERATIONS_FILE = 'src-main/platform/transports/http/operations.ts';

type Source = { name: string; text: string };

/** Each match of `re` (global) in a file, as `file:line: text`, unless `keep` refuses the match. */
function matches(files: Source[], re: RegExp, keep: (m: RegExpMatchArray, f: Source) => boolean = () => true): string[] {
  return files.flatMap((f) =>
    [...f.text.matchAll(re)].filter((m) => keep(m, f)).map((m) => {
      const line = f.text.slice(0, m.index).split('\n').length;
      return `${f.name}:${line}: ${f.text.split('\n')[line - 1]!.trim()}`;
    }),
  );
}

/** A route built or registered by hand: `createRoute(`, a router's `.openapi(route, …)` (not a schema's `.openapi({…})` or `.openapi('Name')`), `openAPIRegistry.registerPath(`. */
const ROUTE_DECLARATION = /\bcreateRoute\s*\(|\.openapi\s*\(\s*(?![\s'"`{])|\bopenAPIRegistry\s*\.\s*registerPath\s*\(/g;

export function routesDeclaredOutsideOperations(files: Source[]): string[] {
  return matches(
    files.filter((f) => f.name !== OPERATIONS_FILE),
    ROUTE_DECLARATION,
  );
}

/** A Hono route registered by path (`.get('/…'`, …, `.route('/…'`), or by `.on(` with a method or a method list or variable. */
const HONO_BY_PATH = /\.(get|post|put|patch|delete|all|route)\s*\(\s*['"`]\//g;
const ON = /\.on\s*\(\s*([^,)]*)/g;
const HTTP_METHOD = /^(get|post|put|patch|delete|head|options)$/i;

/** `.on('file.settled', …)` listens to an event; `.on('GET', …)`, `.on(['GET', 'POST'], …)` and `.on(method, …)` register a route. */
function registersRoute(m: RegExpMatchArray): boolean {
  const first = m[1]!.trim();
  const literal = /^(['"`])([^'"`]*)\1$/.exec(first);
  return literal ? HTTP_METHOD.test(literal[2]!) : true;
}

export function honoRoutesInModules(files: Source[]): string[] {
  const modules = files.filter((f) => f.name.startsWith('src-main/platform/modules/'));
  return [...matches(modules, HONO_BY_PATH), ...matches(modules, ON, registersRoute)];
}

const CLIENT = 'src-renderer/api/client.ts';

/** A string literal that starts with `/api/`: a path the renderer writes instead of naming its operation. */
const API_PATH = /(['"`])\/api\/((?:[^'"`\\$]|\\.|\$(?!\{)|\$\{(?:[^{}]|\{[^{}]*\})*\})*)/g;
const inComment = (m: RegExpMatchArray, f: Source) => /^\s*(\/\/|\*|\/\*)/.test(f.text.slice(f.text.lastIndexOf('\n', m.index! - 1) + 1, m.index));

/** `/api/agents/${id}/files?x=1` as `/api/agents/{}/files?x=1`: one shape per path, whatever the expressions. */
export const shapeOf = (literal: string) => `/api/${literal.replace(/\$\{(?:[^{}]|\{[^{}]*\})*\}/g, '{}')}`;

export function apiPathsInRenderer(files: Source[]): string[] {
  return matches(files, API_PATH, (m, f) => !inComment(m, f));
}

/** The renderer's `/api/` literals (as `file:line: shape`) not allowed in their file. */
export function unlistedApiPaths(files: Source[], allowed: { file: string; shape: string }[]): string[] {
  return files.flatMap((f) =>
    [...f.text.matchAll(API_PATH)]
      .filter((m) => !inComment(m, f))
      .map((m) => ({ shape: shapeOf(m[2]!), line: f.text.slice(0, m.index).split('\n').length }))
      .filter(({ shape }) => !allowed.some((a) => a.file === f.name && a.shape === shape))
      .map(({ shape, line }) => `${f.name}:${line}: ${shape}`),
  );
}

/**
 * Paths the renderer may keep writing (file, shape, why). None today: the transports take the path
 * the client builds from an operation (`base ?? '/api'` + its path, a base with no slash), the
 * renderer has no sign-in request of its own (a 401 is only noticed, in auth-watch.ts), and the
 * Developer screen's curl examples and docs links are text for a person (`${base}/api/…`, not a
 * literal that starts with the path).
 */
const RENDERER_ALLOWED: { file: string; shape: string; why: string }[] = [];

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

function sources(folder: string, ext: RegExp): Source[] {
  return walk(path.join(ROOT, folder))
    .filter((f) => ext.test(f))
    .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
    .map((name) => ({ name, text: fs.readFileSync(path.join(ROOT, name), 'utf8') }));
}

describe('routes are declared once, as operations', () => {
  it('finds a route declared by hand anywhere in the platform, but not in operations.ts or a schema', () => {
    const built = "const route = createRoute({ method: 'get', path: '/memories', responses: {} });\nr.openapi(route, (c) => c.json([]));\n";
    expect(routesDeclaredOutsideOperations([{ name: 'src-main/platform/modules/memories/routes.ts', text: built }])).toEqual([
      "src-main/platform/modules/memories/routes.ts:1: const route = createRoute({ method: 'get', path: '/memories', responses: {} });",
      'src-main/platform/modules/memories/routes.ts:2: r.openapi(route, (c) => c.json([]));',
    ]);
    expect(routesDeclaredOutsideOperations([{ name: 'src-main/platform/transports/openai/routes.ts', text: 'app.openapi(\n  createRoute(spec),\n  handler,\n);\n' }])).toHaveLength(2);
    expect(routesDeclaredOutsideOperations([{ name: 'src-main/platform/contract/files.ts', text: 'r.openAPIRegistry.registerPath({ method: "post", path: "/files" });\n' }])).toHaveLength(1);
    expect(routesDeclaredOutsideOperations([{ name: OPERATIONS_FILE, text: built }])).toEqual([]);
    // A schema's OpenAPI metadata is not a route.
    expect(routesDeclaredOutsideOperations([{ name: 'src-main/platform/contract/files.ts', text: "const Id = z.number().openapi({ example: 1 });\nconst F = z.object({}).openapi('File');\n" }])).toEqual([]);
  });

  it('finds a Hono route registered in a module, but not an event listener', () => {
    const planted = [
      "r.get('/memories', (c) => c.json([]));",
      'r.post(`/memories/:id`, h);',
      "r.on('PUT', '/memories/:id', h);",
      "r.on(['GET', 'POST'], '/x', h);",
      'r.on(op.method.toUpperCase(), path, run);',
      "r.route('/sub', sub);",
    ].join('\n');
    expect(honoRoutesInModules([{ name: 'src-main/platform/modules/memories/routes.ts', text: planted }])).toHaveLength(6);
    const listeners = "this.ctx.events.on('file.settled', onEvent);\nres.on(\n  'data',\n  (c) => c,\n);\nmap.get(key);\n";
    expect(honoRoutesInModules([{ name: 'src-main/platform/modules/files/processing.ts', text: listeners }])).toEqual([]);
    // The transports' own routes (documents, health) are not a module's.
    expect(honoRoutesInModules([{ name: 'src-main/platform/transports/http/app.ts', text: "app.get('/api/docs', h);\n" }])).toEqual([]);
  });

  it('holds for the platform', () => {
    const files = sources('src-main/platform', /\.ts$/);
    expect(files.some((f) => f.name === OPERATIONS_FILE)).toBe(true);
    expect(routesDeclaredOutsideOperations(files)).toEqual([]);
    expect(honoRoutesInModules(files)).toEqual([]);
    // operations.ts itself is what builds the routes.
    expect(matches(files.filter((f) => f.name === OPERATIONS_FILE), ROUTE_DECLARATION).length).toBeGreaterThan(0);
  });
});

describe('the renderer names operations, not paths', () => {
  it('finds a planted path in any quote, not in a comment or the base', () => {
    const planted = [
      "get(Files, '/api/files');",
      'call(X, "POST", "/api/memories");',
      'get(Files, `/api/files/${id}/passages${qs({ limit: 500, ...q })}`);',
      '// GET /api/files and `/api/files` in a comment',
      " * the list ('/api/sessions')",
      "const base = o.base ?? '/api';",
      'const docs = `${base}/api/docs`;',
    ].join('\n');
    expect(apiPathsInRenderer([{ name: 'src-renderer/stores/planted.ts', text: planted }])).toEqual([
      "src-renderer/stores/planted.ts:1: get(Files, '/api/files');",
      'src-renderer/stores/planted.ts:2: call(X, "POST", "/api/memories");',
      'src-renderer/stores/planted.ts:3: get(Files, `/api/files/${id}/passages${qs({ limit: 500, ...q })}`);',
    ]);
    expect(shapeOf('files/${id}/passages${qs({ limit: 500, ...q })}')).toBe('/api/files/{}/passages{}');
  });

  it('lets an allowed path through in its own file only, and nothing else', () => {
    const allowed = [{ file: 'src-renderer/api/auth.ts', shape: '/api/session' }];
    expect(unlistedApiPaths([{ name: 'src-renderer/api/auth.ts', text: "t.request({ path: '/api/session' });\n" }], allowed)).toEqual([]);
    expect(unlistedApiPaths([{ name: 'src-renderer/api/auth.ts', text: "t.request({ path: '/api/sessions' });\n" }], allowed)).toEqual(['src-renderer/api/auth.ts:1: /api/sessions']);
    expect(unlistedApiPaths([{ name: CLIENT, text: "get(X, '/api/session');\nget(X, `/api/agents/${id}/files?x=${y}`);\n" }], allowed)).toEqual([`${CLIENT}:1: /api/session`, `${CLIENT}:2: /api/agents/{}/files?x={}`]);
  });

  it('holds for the renderer', () => {
    const files = sources('src-renderer', /\.tsx?$/);
    expect(files.some((f) => f.name === CLIENT)).toBe(true);
    expect(files.length).toBeGreaterThan(50);
    expect(unlistedApiPaths(files, RENDERER_ALLOWED)).toEqual([]);
  });
});
