/**
 * Property-based fuzzing of every operation in the platform's own OpenAPI document: hostile
 * ids, query, headers and bodies. For each request: no 5xx, every error in the contract's
 * shape, and a rejected request leaves every table exactly as it was.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDoc, operationsOf, opName } from './openapi-ops.js';
import { requestsFor, oddAuthorization, type FuzzRequest } from './requests.js';
import { problemsWith } from './answers.js';
import { anyMethod, brokenJson, pathValue } from './arbitraries.js';
import { cleanup, changedTables, digestTables, FUZZ_SEED, fuzzPlatform, runsPerOperation, send, settle } from './harness.js';

const p = fuzzPlatform();
const doc = await loadDoc(p);
const ops = operationsOf(doc);
const runs = runsPerOperation(ops.length);
const stats = { requests: 0, rejected: 0, accepted: 0, refusedByClient: 0, statuses: {} as Record<number, number> };
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);
process.on('unhandledRejection', onUnhandled);

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await cleanup(p);
  // The figure the README quotes ("requests fuzzed").
  console.info(`[fuzz] seed ${FUZZ_SEED}, ${ops.length} operations x ${runs} runs: ${stats.requests} requests (${stats.rejected} rejected, ${stats.accepted} accepted); statuses ${JSON.stringify(stats.statuses)}`);
});

const settings = (n = runs) => ({ seed: FUZZ_SEED, numRuns: n, endOnFailure: true });
const timeout = (n = runs) => 30_000 + n * 400;

/** Sends `req`, checks the answer's shape, and that a rejection changed no table. */
async function probe(req: FuzzRequest, opts: { key?: string | null; client?: string } = {}) {
  const before = digestTables(p.db);
  const a = await send(p, req, opts);
  if (!a) {
    stats.refusedByClient++;
    return null;
  }
  stats.requests++;
  stats.statuses[a.status] = (stats.statuses[a.status] ?? 0) + 1;
  const where = `${req.method} ${req.url.slice(0, 160)} [${req.kind}] -> ${a.status}`;
  expect(problemsWith(a, req), where).toEqual([]);
  if (a.status >= 400) {
    stats.rejected++;
    expect(changedTables(before, digestTables(p.db)), `${where}: a rejected request changed data`).toEqual([]);
  } else {
    stats.accepted++;
    if (req.method !== 'GET') await settle(p); // accepted writes may start background work; let it finish
  }
  if (req.method === 'GET' && a.status < 400) {
    expect(changedTables(before, digestTables(p.db)), `${where}: a read changed data`).toEqual([]);
  }
  return a;
}

describe('fuzz: every operation of /api/openapi.json', () => {
  it('the document lists the operations the app serves', () => {
    expect(ops.length).toBeGreaterThanOrEqual(10);
    const served = new Set(p.app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path.replace(/:([^/]+)/g, '{$1}')}`));
    // Every documented operation exists in the route table (the reverse is checked in test/security).
    for (const op of ops) expect(served.has(opName(op)), `${opName(op)} is documented but not routed`).toBe(true);
  });

  for (const op of ops) {
    it(
      `${opName(op)}: hostile ids, query, headers and bodies`,
      async () => {
        await settle(p);
        await fc.assert(
          fc.asyncProperty(requestsFor(doc, op), async (req) => {
            await probe(req);
          }),
          settings(),
        );
      },
      timeout(),
    );
  }

  it(
    'odd Authorization headers never get in, on any operation',
    async () => {
      let n = 0;
      const arb = fc.tuple(fc.constantFrom(...ops), fc.array(pathValue, { minLength: 3, maxLength: 3 }), oddAuthorization);
      await fc.assert(
        fc.asyncProperty(arb, async ([op, ids, auth]) => {
          let i = 0;
          const url = op.path.replace(/\{[^}]+\}/g, () => ids[i++]);
          const body = op.method === 'GET' ? undefined : '{}';
          // A fresh client address per request: this checks the key test, not the limiter (test/security does).
          const a = await probe({ method: op.method, url, headers: { authorization: auth, 'content-type': 'application/json' }, body, kind: 'odd-auth' }, { client: `fuzz-${n++}` });
          if (a) expect(a.status, `${op.method} ${url} with "${auth.slice(0, 40)}"`).toBe(401);
        }),
        settings(Math.max(runs * 2, 60)),
      );
    },
    timeout(runs * 2),
  );

  it(
    'wrong methods and broken bodies on every path',
    async () => {
      const paths = [...new Set(ops.map((o) => o.path))];
      const arb = fc.tuple(fc.constantFrom(...paths), anyMethod, fc.array(pathValue, { minLength: 3, maxLength: 3 }), fc.option(brokenJson, { nil: undefined }));
      await fc.assert(
        fc.asyncProperty(arb, async ([path, method, ids, body]) => {
          let i = 0;
          const url = path.replace(/\{[^}]+\}/g, () => ids[i++]);
          await probe({ method, url, headers: { 'content-type': 'application/json' }, body: method === 'GET' || method === 'HEAD' ? undefined : body, kind: 'method' });
        }),
        settings(Math.max(runs * 2, 60)),
      );
    },
    timeout(runs * 2),
  );

  it(
    'unknown paths under /api answer 404 in the contract shape',
    async () => {
      const arb = fc.tuple(fc.webSegment(), fc.array(pathValue, { maxLength: 3 }));
      await fc.assert(
        fc.asyncProperty(arb, async ([seg, rest]) => {
          const url = `/api/zz-${seg}${rest.map((r) => `/${r}`).join('')}`;
          const a = await probe({ method: 'GET', url, headers: {}, kind: 'unknown-path' });
          if (a) expect(a.status).toBe(404);
        }),
        settings(40),
      );
    },
    timeout(40),
  );

  it('left no crash, no unhandled rejection and no polluted prototype behind', async () => {
    const a = await send(p, { method: 'GET', url: '/api/agents', headers: {}, kind: 'none' });
    expect(a?.status).toBe(200);
    expect(unhandled).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(p.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(stats.requests).toBeGreaterThan((ops.length * runs) / 2);
  });
});
