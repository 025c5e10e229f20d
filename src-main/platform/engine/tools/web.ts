import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { AddressRefused, checkHost, guardedLookup, isBlockedAddress, type GuardOptions } from './address-guard.js';
import type { ToolSpec } from '../providers/types.js';
import { ProviderError } from '../providers/types.js';
import type { ToolCallResult, WebTools } from '../tool-loop.js';
import { PageUnreadable, readPage } from '../../ingest/pages/read.js';
import { readableText } from '../../ingest/pages/readable.js';

/** The web tools' function names (no MCP tool takes one). */
export const WEB_TOOL_NAMES = ['web_search', 'fetch_page'] as const;

export interface SearchBackend {
  searxngUrl: string | null;
  braveApiKey: string | null;
  /** let fetch_page reach loopback and private addresses (off by default: a model must not probe the user's network) */
  allowPrivateFetch?: boolean;
}

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** The website sources of the chat agent's `tools` question, as search scopes. */
export const WEBSITE_SOURCES: Record<string, string> = {
  wikipedia: 'wikipedia.org',
  arxiv: 'arxiv.org',
  github: 'github.com',
  stackoverflow: 'stackoverflow.com',
  reddit: 'reddit.com',
  hackernews: 'news.ycombinator.com',
  youtube: 'youtube.com',
  pubmed: 'pubmed.ncbi.nlm.nih.gov',
};

export function searchConfigured(b: SearchBackend): boolean {
  return !!(b.searxngUrl || b.braveApiKey);
}

export function toolSpecs(tool: string): ToolSpec[] {
  const site = WEBSITE_SOURCES[tool];
  return [
    {
      name: 'web_search',
      description: site ? `Search ${site} for pages about a query. Returns titles, URLs and snippets.` : 'Search the web. Returns titles, URLs and snippets.',
      parameters: { type: 'object', properties: { query: { type: 'string', description: 'What to search for' } }, required: ['query'] },
    },
    {
      name: 'fetch_page',
      description: 'Fetch a web page and return its readable text.',
      parameters: { type: 'object', properties: { url: { type: 'string', description: 'Absolute http(s) URL' } }, required: ['url'] },
    },
  ];
}

export async function webSearch(b: SearchBackend, query: string, tool: string, signal: AbortSignal): Promise<SearchHit[]> {
  const site = WEBSITE_SOURCES[tool];
  const q = site ? `${query} site:${site}` : query;
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(15_000)]);
  if (b.searxngUrl) {
    const url = new URL('search', b.searxngUrl.replace(/\/?$/, '/'));
    url.searchParams.set('q', q);
    url.searchParams.set('format', 'json');
    const res = await fetch(url, { signal: timeout, headers: { accept: 'application/json' } });
    if (!res.ok) throw new ProviderError(`The SearXNG search answered ${res.status} (is its JSON format enabled?).`, 'tool_error');
    const j = (await jsonCapped(res, 'The SearXNG search')) as { results?: { title?: string; url?: string; content?: string }[] };
    return (j.results ?? []).slice(0, 8).map((r) => ({ title: r.title ?? '', url: r.url ?? '', snippet: r.content ?? '' }));
  }
  if (b.braveApiKey) {
    const url = new URL('https://api.search.brave.com/res/v1/web/search');
    url.searchParams.set('q', q);
    url.searchParams.set('count', '8');
    const res = await fetch(url, { signal: timeout, headers: { accept: 'application/json', 'x-subscription-token': b.braveApiKey } });
    if (!res.ok) throw new ProviderError(`The Brave search API answered ${res.status}.`, 'tool_error');
    const j = (await jsonCapped(res, 'The Brave search API')) as { web?: { results?: { title?: string; url?: string; description?: string }[] } };
    const hits = (j.web?.results ?? []).slice(0, 8);
    const snippets = await Promise.all(hits.map((r) => snippetText(String(r.description ?? ''), timeout)));
    return hits.map((r, i) => ({ title: r.title ?? '', url: r.url ?? '', snippet: snippets[i] }));
  }
  throw new ProviderError('No web search backend is configured.', 'tool_unavailable');
}

const MAX_SEARCH_BYTES = 2_000_000;

/** A search answer's JSON, read up to a cap: a backend that sends more is cut off, not buffered. */
async function jsonCapped(res: Response, what: string): Promise<unknown> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  for (;;) {
    const r = reader ? await reader.read() : { done: true as const, value: undefined };
    if (r.done) break;
    size += r.value.byteLength;
    if (size > MAX_SEARCH_BYTES) {
      await reader!.cancel().catch(() => {});
      throw new ProviderError(`${what} answered with more than ${MAX_SEARCH_BYTES / 1_000_000} MB; its results were not read.`, 'tool_error');
    }
    chunks.push(r.value);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ProviderError(`${what} did not answer with JSON.`, 'tool_error');
  }
}

/**
 * A search snippet's text: backends mark the matched words with tags. Read by the page reader,
 * as pages are: a backend is a stranger's server too.
 */
async function snippetText(html: string, signal: AbortSignal): Promise<string> {
  if (!html.includes('<') && !html.includes('&')) return html;
  return (await readPage(html, { signal, maxChars: 2_000 })).text;
}

export { readableText };

/** Loopback, private, link-local, unique-local, CGNAT, metadata and every other non-public address. */
export function isPrivateAddress(ip: string): boolean {
  return isBlockedAddress(ip);
}

const MAX_PAGE_BYTES = 2_000_000;

interface Fetched {
  status: number;
  location: string | null;
  type: string;
  body: string;
}

/**
 * One GET with node:http(s), so the socket connects through the guard's lookup: the address
 * that was checked is the address used (global fetch would resolve the name a second time).
 */
function getOnce(u: URL, signal: AbortSignal, guard: GuardOptions | null): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const mod = u.protocol === 'https:' ? https : http;
    const req = mod.request(
      u,
      {
        method: 'GET',
        signal,
        // No pooled sockets: a kept-alive connection would skip the lookup of the next hop.
        agent: false,
        headers: { 'user-agent': 'AgentDesk/1.0 (+page fetcher)', accept: 'text/html,text/plain;q=0.9,*/*;q=0.5' },
        ...(guard ? { lookup: guardedLookup(guard) } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const location = status >= 300 && status < 400 ? (res.headers.location ?? null) : null;
        const type = String(res.headers['content-type'] ?? '');
        if (location) {
          res.destroy();
          return resolve({ status, location, type, body: '' });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          size += c.byteLength;
          if (size >= MAX_PAGE_BYTES) {
            res.destroy();
            resolve({ status, location, type, body: Buffer.concat(chunks).toString('utf8') });
          }
        });
        res.on('end', () => resolve({ status, location, type, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export interface FetchPageOptions {
  maxChars?: number;
  allowPrivate?: boolean;
  /** The address guard's resolver and policy (tests point them at a loopback DNS server). */
  guard?: GuardOptions;
}

export async function fetchPage(url: string, signal: AbortSignal, opts: FetchPageOptions = {}): Promise<string> {
  const maxChars = opts.maxChars ?? 12_000;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `Not a valid URL: ${url}`;
  }
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(15_000)]);
  const guard = opts.allowPrivate ? null : (opts.guard ?? {});
  let res: Fetched | null = null;
  for (let hop = 0; hop < 6; hop++) {
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return `Only http(s) pages can be fetched: ${u.href}`;
    try {
      // IP literals never reach the lookup hook: check them here (names are checked as they connect).
      if (guard && net.isIP(u.hostname.replace(/^\[|\]$/g, ''))) await checkHost(u.hostname, guard);
      res = await getOnce(u, timeout, guard);
    } catch (err) {
      if (err instanceof AddressRefused) return err.message;
      if (signal.aborted) throw err;
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'EADDRREFUSED' || e.code === 'ENOTFOUND') return e.message;
      throw err;
    }
    if (!res.location) break;
    u = new URL(res.location, u);
    res = null;
  }
  if (!res) return 'Too many redirects.';
  if (res.status < 200 || res.status >= 300) return `The page answered ${res.status}.`;
  const raw = res.body;
  let title = '';
  let text = raw;
  // Parsed in the page reader process, in linear time and with a time limit: never on this event loop.
  if (res.type.toLowerCase().includes('html') || raw.trimStart().startsWith('<')) {
    try {
      ({ title, text } = await readPage(raw, { signal, maxChars: maxChars + 1 }));
    } catch (err) {
      if (err instanceof PageUnreadable) return err.message;
      throw err;
    }
  }
  const out = `${title ? `${title}\n\n` : ''}${text}`;
  return out.length > maxChars ? `${out.slice(0, maxChars)}\n[truncated]` : out;
}

/** The web tools of a run whose `tools` answer is `scope` (internet or a website source). */
export function webTools(b: SearchBackend, scope: string): WebTools {
  return { specs: toolSpecs(scope), call: (name, args, signal) => callWebTool(b, scope, name, args, signal) };
}

/** Runs one web tool call; a failure is a result the model reads (so it can adapt), marked as an error. */
export async function callWebTool(b: SearchBackend, scope: string, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolCallResult> {
  try {
    if (name === 'web_search') {
      const hits = await webSearch(b, String(args.query ?? ''), scope, signal);
      return { text: hits.length ? hits.map((h, i) => `${i + 1}. ${h.title}\n${h.url}\n${h.snippet}`).join('\n\n') : 'No results.', isError: false };
    }
    if (name === 'fetch_page') return { text: await fetchPage(String(args.url ?? ''), signal, { allowPrivate: b.allowPrivateFetch }), isError: false };
    return { text: `Unknown tool ${name}.`, isError: true };
  } catch (err) {
    if (signal.aborted) throw err;
    return { text: `The tool failed: ${(err as Error).message}`, isError: true };
  }
}
