import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Hono } from 'hono';
import type { AppEnv } from './env.js';
import type { PrincipalResolver } from './middleware/auth.js';
import { PlatformError } from '../../kernel/errors.js';

/**
 * Browser mode (`npm run serve`): a one-time login link printed on the terminal is exchanged
 * for an HttpOnly, SameSite=Strict session cookie, as Jupyter does. Only the terminal's user
 * sees the link, so only they get a session; a web page elsewhere cannot, and cannot ride the
 * cookie either: SameSite does not tell ports apart (a page on another local port, or an image in
 * a model's answer, is "same site"), so every cookie request must also carry the app's own
 * header, which only a script of our own origin can set without a CORS preflight we never allow;
 * state-changing ones must come from our origin too.
 * Sessions outlive a restart of serve on the same data dir and port (as Jupyter's do): their hashes
 * and expiry are kept in the data dir (`store`), never the cookie itself, so an open page carries on
 * once the server is back instead of asking for a new link.
 */
export interface BrowserSessionOptions {
  userId: number;
  /** Distinguishes the cookie of two servers on one host (cookies ignore the port); may be known only once listening. */
  port: number | (() => number);
  /** How long a session lasts, in ms (default 7 days). */
  ttlMs?: number;
  now?: () => number;
  /** Where sessions are kept across restarts (default: memory only). */
  store?: SessionStore;
}

/** A session as kept: who it signs in and until when; keyed by the hash of its cookie value. */
export interface KeptSession {
  userId: number;
  expires: number;
}

export interface SessionStore {
  load(): [string, KeptSession][];
  save(sessions: [string, KeptSession][]): void;
}

/**
 * Sessions kept in one file (0600, written whole through a temporary file and a rename); a missing
 * or damaged file is no sessions, as a fresh server has.
 */
export function fileSessionStore(file: () => string): SessionStore {
  return {
    load() {
      try {
        const v: unknown = JSON.parse(fs.readFileSync(file(), 'utf8'));
        if (!Array.isArray(v)) return [];
        return v.filter(
          (e): e is [string, KeptSession] =>
            Array.isArray(e) && typeof e[0] === 'string' && /^[0-9a-f]{64}$/.test(e[0]) && typeof e[1]?.userId === 'number' && typeof e[1]?.expires === 'number',
        );
      } catch {
        return [];
      }
    },
    save(sessions) {
      const target = file();
      const tmp = `${target}.${process.pid}.tmp`;
      try {
        fs.writeFileSync(tmp, JSON.stringify(sessions), { mode: 0o600 });
        fs.renameSync(tmp, target);
      } catch {
        // Not kept this time: the session still works until serve stops.
        fs.rmSync(tmp, { force: true });
      }
    },
  };
}

export interface BrowserSessions {
  cookieName(): string;
  /** A fresh one-time login token (shown once; only its hash is kept). */
  issueLoginToken(): string;
  /** The login URL for a fresh token on the given base URL. */
  loginUrl(baseUrl: string): string;
  /** Lets a valid session cookie authenticate API calls. */
  resolver: PrincipalResolver;
  /** Adds GET /login to the app. */
  mount(app: Hono<AppEnv>): void;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The header the app's own page sends on every API request (`X-Agent-Desk: 1`). */
export const APP_HEADER = 'x-agent-desk';
const hash = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

export class CrossSiteRequestError extends PlatformError {
  constructor() {
    super(403, 'Cross-site request refused: a browser session can only change data from the Agent Desk page itself.', 'cross_site');
  }
}

export class MissingAppHeaderError extends PlatformError {
  constructor() {
    super(403, 'Request refused: a browser session is used only by the Agent Desk page itself (its requests carry the X-Agent-Desk header).', 'cross_site');
  }
}

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return null;
}

/** The request's own origin, from its scheme and Host (what a same-origin page sends as Origin). */
function ownOrigin(url: string, host: string | undefined): string | null {
  if (!host) return null;
  return `${new URL(url).protocol}//${host}`.toLowerCase();
}

/** A cookie-borne request that changes state must come from our own page (CSRF defence in depth). */
export function isSameOriginRequest(method: string, url: string, headers: { get(name: string): string | null | undefined }): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return true;
  const site = headers.get('sec-fetch-site');
  if (site && site !== 'same-origin') return false;
  const origin = headers.get('origin');
  if (origin) return origin.toLowerCase() === ownOrigin(url, headers.get('host') ?? undefined);
  // No Origin on a state-changing request: browsers always send one for fetch/forms; refuse.
  return site === 'same-origin';
}

function loginFailedPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Agent Desk: login link not valid</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}code{background:#eee;padding:0 .2rem}</style></head>
<body><h1>This login link is not valid</h1>
<p>Each link printed by <code>npm run serve</code> works once, and this one was already used or is wrong.</p>
<p>If this browser already signed in, go to <a href="/">Agent Desk</a>. Otherwise restart <code>npm run serve</code> and open the new link it prints.</p>
</body></html>`;
}

/** A server bound to every interface is opened in the browser through loopback (the Host guard's default). */
function browserBase(baseUrl: string): string {
  return baseUrl.replace(/\/$/, '').replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:');
}

export function createBrowserSessions(opts: BrowserSessionOptions): BrowserSessions {
  const ttl = opts.ttlMs ?? 7 * 24 * 3600_000;
  const now = opts.now ?? Date.now;
  const cookieName = () => `agent_desk_session_${typeof opts.port === 'function' ? opts.port() : opts.port}`;
  const tokens = new Set<string>();
  let loaded: Map<string, KeptSession> | null = null;
  /** Read from the store on first use (the data dir is known by then). */
  const sessions = (): Map<string, KeptSession> => (loaded ??= new Map(opts.store?.load() ?? []));
  const keep = () => {
    const live = [...sessions()].filter(([, s]) => s.expires > now());
    opts.store?.save(live);
  };

  const issueLoginToken = () => {
    const token = crypto.randomBytes(24).toString('base64url');
    tokens.add(hash(token));
    return token;
  };

  const lookup = (cookieHeader: string | undefined) => {
    const id = cookieValue(cookieHeader, cookieName());
    if (!id) return null;
    const key = hash(id);
    const s = sessions().get(key);
    if (!s) return null;
    if (s.expires <= now()) {
      sessions().delete(key);
      return null;
    }
    return s;
  };

  const resolver: PrincipalResolver = (c) => {
    const s = lookup(c.req.header('cookie'));
    if (!s) return null;
    if (c.req.header(APP_HEADER) !== '1') throw new MissingAppHeaderError();
    if (!isSameOriginRequest(c.req.method, c.req.url, c.req.raw.headers)) throw new CrossSiteRequestError();
    return { userId: s.userId, via: 'session' };
  };

  const mount = (app: Hono<AppEnv>) => {
    app.get('/login', (c) => {
      const token = c.req.query('token') ?? '';
      const noStore = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };
      if (!token || !tokens.delete(hash(token))) return c.html(loginFailedPage(), 403, noStore);
      const id = crypto.randomBytes(32).toString('base64url');
      sessions().set(hash(id), { userId: opts.userId, expires: now() + ttl });
      keep();
      const cookie = `${cookieName()}=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(ttl / 1000)}`;
      return new Response(null, { status: 302, headers: { Location: '/', 'Set-Cookie': cookie, ...noStore } });
    });
  };

  return {
    cookieName,
    issueLoginToken,
    loginUrl: (baseUrl) => `${browserBase(baseUrl)}/login?token=${issueLoginToken()}`,
    resolver,
    mount,
  };
}
