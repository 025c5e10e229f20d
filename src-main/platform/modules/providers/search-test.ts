import { ValidationError } from '../../kernel/errors.js';
import type { SearchTestBody, SearchTestResult } from '../../contract/settings.js';
import { webSearch, type SearchBackend } from '../../engine/tools/web.js';
import type { SearchConfig } from './service.js';
import { say } from '../../contract/messages.js';

/** How long a test search may take before it counts as no answer. */
const TEST_TIMEOUT_MS = 10_000;
/** What the test searches for: a word every backend finds something for. */
const TEST_QUERY = 'weather';

/** Why a search reached nothing, in a sentence; the backend's own refusals already are sentences. */
function reason(err: unknown, where: string): string {
  const e = err as Error & { cause?: { code?: string } };
  if (e.name === 'TimeoutError') return `No answer from ${where} within ${TEST_TIMEOUT_MS / 1000} seconds.`;
  const code = e.cause?.code ?? '';
  if (code === 'ECONNREFUSED') return `Nothing answered at ${where}. Check that it is running and the address is right.`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `The host of ${where} was not found. Check the address.`;
  if (/certificate|CERT|SSL|TLS/i.test(`${code} ${e.message}`)) return `The HTTPS certificate of ${where} isn't trusted.`;
  if (e.message === 'fetch failed') return `${where} could not be reached.`;
  return e.message;
}

/**
 * One real search on one backend (the saved one, or one given before saving), so Settings can
 * say whether it works. A field left out is the saved value; a Brave key only goes to Brave.
 */
export async function testSearch(body: SearchTestBody, saved: SearchConfig, signal?: AbortSignal): Promise<SearchTestResult> {
  let backend: SearchBackend;
  let where: string;
  if (body.backend === 'searxng') {
    const url = body.searxng_url ?? saved.searxngUrl;
    if (!url) throw ValidationError.field('searxng_url', say.required('searxng url', 'when no SearXNG address is saved'));
    backend = { searxngUrl: url, braveApiKey: null };
    where = new URL(url).host;
  } else {
    const key = body.brave_api_key ?? saved.braveApiKey;
    if (!key) throw ValidationError.field('brave_api_key', say.required('brave api key', 'when no Brave key is saved'));
    backend = { searxngUrl: null, braveApiKey: key };
    where = 'the Brave Search API';
  }
  const t0 = performance.now();
  const deadline = AbortSignal.timeout(TEST_TIMEOUT_MS);
  try {
    const hits = await webSearch(backend, TEST_QUERY, 'internet', signal ? AbortSignal.any([signal, deadline]) : deadline);
    const latency_ms = Math.round(performance.now() - t0);
    return { ok: true, results: hits.length, titles: hits.slice(0, 3).map((h) => h.title.slice(0, 200)), error: null, latency_ms };
  } catch (err) {
    const timedOut = deadline.aborted && !signal?.aborted;
    return { ok: false, results: 0, titles: [], error: reason(timedOut ? Object.assign(new Error('timeout'), { name: 'TimeoutError' }) : err, where), latency_ms: Math.round(performance.now() - t0) };
  }
}
