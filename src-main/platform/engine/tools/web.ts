import dns from 'node:dns/promises';
import net from 'node:net';
import type { ToolSpec } from '../providers/types.js';
import { ProviderError } from '../providers/types.js';

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
    const j = (await res.json()) as { results?: { title?: string; url?: string; content?: string }[] };
    return (j.results ?? []).slice(0, 8).map((r) => ({ title: r.title ?? '', url: r.url ?? '', snippet: r.content ?? '' }));
  }
  if (b.braveApiKey) {
    const url = new URL('https://api.search.brave.com/res/v1/web/search');
    url.searchParams.set('q', q);
    url.searchParams.set('count', '8');
    const res = await fetch(url, { signal: timeout, headers: { accept: 'application/json', 'x-subscription-token': b.braveApiKey } });
    if (!res.ok) throw new ProviderError(`The Brave search API answered ${res.status}.`, 'tool_error');
    const j = (await res.json()) as { web?: { results?: { title?: string; url?: string; description?: string }[] } };
    return (j.web?.results ?? []).slice(0, 8).map((r) => ({ title: r.title ?? '', url: r.url ?? '', snippet: stripTags(r.description ?? '') }));
  }
  throw new ProviderError('No web search backend is configured.', 'tool_unavailable');
}

function stripTags(s: string): string {
  return s.replace(/<[^>]+>/g, '');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(s: string): string {
  return s.replace(/&(#x?[0-9a-f]+|\w+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/**
 * Readable text of an HTML page: scripts, styles, navigation and other chrome dropped, the
 * `<main>`/`<article>` part preferred, block elements turned into line breaks.
 */
export function readableText(html: string): { title: string; text: string } {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]?.trim() ?? '';
  let body = html.replace(/<(script|style|noscript|svg|template|iframe|nav|header|footer|aside|form)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<!--[\s\S]*?-->/g, ' ');
  const main = /<(main|article)\b[^>]*>([\s\S]*?)<\/\1>/i.exec(body)?.[2];
  if (main && main.length > 200) body = main;
  const text = body
    .replace(/<(br|\/p|\/div|\/li|\/h[1-6]|\/tr|\/section|\/article)\b[^>]*>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[ \t\f\v\r]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title: decodeEntities(title).replace(/\s+/g, ' '), text: decodeEntities(text) };
}

/** Loopback, private, link-local, unique-local and unspecified addresses. */
export function isPrivateAddress(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') && net.isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (net.isIPv4(v4)) {
    const [a, b] = v4.split('.').map(Number);
    return a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  const x = ip.toLowerCase();
  return x === '::1' || x === '::' || x.startsWith('fc') || x.startsWith('fd') || /^fe[89ab]/.test(x);
}

/** Why a URL may not be fetched (SSRF guard), or null. Each redirect hop is checked again. */
async function refusal(u: URL, allowPrivate: boolean): Promise<string | null> {
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `Only http(s) pages can be fetched: ${u.href}`;
  if (allowPrivate) return null;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  let addrs: string[];
  try {
    addrs = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return `The host ${host} could not be resolved.`;
  }
  return addrs.some(isPrivateAddress) ? `Pages on local or private network addresses (${host}) cannot be fetched.` : null;
}

const MAX_PAGE_BYTES = 2_000_000;

async function readLimited(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= MAX_PAGE_BYTES) {
      await reader.cancel().catch(() => {});
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function fetchPage(url: string, signal: AbortSignal, opts: { maxChars?: number; allowPrivate?: boolean } = {}): Promise<string> {
  const maxChars = opts.maxChars ?? 12_000;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `Not a valid URL: ${url}`;
  }
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(15_000)]);
  let res: Response | null = null;
  for (let hop = 0; hop < 6; hop++) {
    const refused = await refusal(u, opts.allowPrivate ?? false);
    if (refused) return refused;
    res = await fetch(u, { signal: timeout, redirect: 'manual', headers: { 'user-agent': 'AgentDesk/1.0 (+page fetcher)', accept: 'text/html,text/plain;q=0.9,*/*;q=0.5' } });
    const next = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    if (!next) break;
    await res.body?.cancel();
    u = new URL(next, u);
    res = null;
  }
  if (!res) return 'Too many redirects.';
  if (!res.ok) return `The page answered ${res.status}.`;
  const type = res.headers.get('content-type') ?? '';
  const raw = await readLimited(res);
  const { title, text } = /html/i.test(type) || /^\s*</.test(raw) ? readableText(raw) : { title: '', text: raw };
  const out = `${title ? `${title}\n\n` : ''}${text}`;
  return out.length > maxChars ? `${out.slice(0, maxChars)}\n[truncated]` : out;
}

/** Runs one tool call; returns the text given back to the model (errors included, so it can adapt). */
export async function runWebTool(b: SearchBackend, tool: string, name: string, args: string, signal: AbortSignal): Promise<string> {
  let a: Record<string, unknown> = {};
  try {
    a = JSON.parse(args || '{}') as Record<string, unknown>;
  } catch {
    return 'The arguments were not valid JSON.';
  }
  try {
    if (name === 'web_search') {
      const hits = await webSearch(b, String(a.query ?? ''), tool, signal);
      return hits.length ? hits.map((h, i) => `${i + 1}. ${h.title}\n${h.url}\n${h.snippet}`).join('\n\n') : 'No results.';
    }
    if (name === 'fetch_page') return await fetchPage(String(a.url ?? ''), signal, { allowPrivate: b.allowPrivateFetch });
    return `Unknown tool ${name}.`;
  } catch (err) {
    if (signal.aborted) throw err;
    return `The tool failed: ${(err as Error).message}`;
  }
}
