import fs from 'node:fs';
import { limit, until } from '../fixtures/until.js';
import type { Platform } from '../../src-main/platform/platform.js';
import { BASE, KEY, makePlatform } from '../api/helpers.js';
import type { Answer } from './answers.js';
import type { FuzzRequest } from './requests.js';
import { digestTables, changedTables } from './digest.js';

/** Runs per operation: a fixed, bounded number in `npm test`, more with FUZZ_RUNS (npm run fuzz). */
export function runsPerOperation(operations: number): number {
  const env = Number(process.env.FUZZ_RUNS);
  if (Number.isFinite(env) && env > 0) return Math.floor(env);
  // Keep the CI profile near 2500 requests whatever the number of routes.
  return Math.max(20, Math.min(80, Math.floor(2500 / Math.max(operations, 1))));
}

/** Fixed in CI so a failure reproduces; the long run takes FUZZ_SEED or a fresh one (printed). */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? (process.env.FUZZ_RUNS ? Date.now() % 2 ** 31 : 20261121));

/** A platform for fuzzing: its own data dir, no model provider from the environment, loopback only. */
export function fuzzPlatform(): Platform & { dir: string } {
  return makePlatform({ env: {} });
}

export async function cleanup(p: Platform & { dir: string }): Promise<void> {
  await p.close();
  fs.rmSync(p.dir, { recursive: true, force: true });
}

/**
 * Sends one request in-process. `client` names the caller's address, so that hostile-auth runs
 * are not all counted against one address by the failed-auth limiter.
 */
export async function send(p: Platform, req: FuzzRequest, opts: { key?: string | null; client?: string } = {}): Promise<Answer | null> {
  const headers: Record<string, string> = { host: '127.0.0.1:8787', ...req.headers };
  if (opts.key !== null && headers.authorization === undefined) headers.authorization = `Bearer ${opts.key ?? KEY}`;
  let request: Request;
  try {
    request = new Request(`${BASE}${req.url}`, { method: req.method, headers, body: req.body as BodyInit | undefined });
  } catch {
    return null; // the client library refused to build it (e.g. a header value it cannot encode): nothing reached the server
  }
  const env = opts.client ? { incoming: { socket: { remoteAddress: opts.client } } } : undefined;
  const bound = limit(20_000); // a safety net for a hung request, scaled on a loaded machine
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${Math.round(bound / 1000)} s to ${req.method} ${req.url.slice(0, 200)}`)), bound).unref());
  const res = await Promise.race([p.app.request(request, undefined, env as any), timeout]);
  const text = await Promise.race([res.text(), timeout]);
  return { status: res.status, headers: res.headers, text };
}

/** Work a request may leave running: jobs due or at work, embedding, live executions, files being read, model downloads. */
async function busy(p: Platform): Promise<string[]> {
  const jobsIdle = await p.jobs.idle(0).then(
    () => true,
    () => false,
  );
  // Embedding runs on the event loop after memory and file writes; idle() waits for the pass in flight.
  await p.services.retrieval.idle();
  const count = (sql: string) => (p.db.prepare(sql).get() as { n: number }).n;
  return [
    ...(jobsIdle ? [] : ['jobs']),
    ...(count("SELECT count(*) AS n FROM executions WHERE status IN ('starting','running')") ? ['executions'] : []),
    ...(count("SELECT count(*) AS n FROM files WHERE status IN ('waiting','in_progress')") ? ['files'] : []),
    ...(count("SELECT count(*) AS n FROM model_downloads WHERE status IN ('queued','downloading','verifying')") ? ['model downloads'] : []),
  ];
}

/**
 * Waits until no background work (jobs, embedding, executions, files, downloads) is left, so that a digest
 * taken now is a fair "before". Decided by that state, never by a quiet spell.
 */
export async function settle(p: Platform): Promise<Record<string, string>> {
  let left: string[] = [];
  await until(`background work to finish (${left.join(', ')})`, async () => (left = await busy(p)).length === 0, 30_000);
  return digestTables(p.db);
}

export { digestTables, changedTables };
