import crypto from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import { keyDigest, type KeysService } from '../../../modules/access/keys.js';
import type { Principal } from '../../../kernel/context.js';
import { requestHeader } from '../request-header.js';
import { PlatformError } from '../../../kernel/errors.js';

export class UnauthenticatedError extends PlatformError {
  constructor() {
    super(401, 'Unauthenticated.', 'unauthenticated');
  }
}

/** Extra ways in besides a bearer key (e.g. the browser-mode session cookie). */
export type PrincipalResolver = (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => Principal | null;

/**
 * Failed attempts per presented credential: after `limit` in `windowMs`, that credential gets 429
 * until the window passes. Keyed by what was presented, not by the client's address: every local
 * client shares 127.0.0.1, so an address key let one wrong key lock out the valid key and the
 * app's own session, while rotating 127.0.0.2-127.0.0.11 gave unlimited tries.
 */
export class FailureLimiter {
  private readonly hits = new Map<string, number[]>();
  constructor(
    private readonly limit = 30,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}
  private recent(key: string, now: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length) this.hits.set(key, list);
    else this.hits.delete(key);
    return list;
  }
  blockedFor(key: string): number {
    // The common case, a credential that never failed, costs one lookup.
    if (!this.hits.has(key)) return 0;
    const now = this.now();
    const list = this.recent(key, now);
    return list.length >= this.limit ? Math.ceil((list[0] + this.windowMs - now) / 1000) : 0;
  }
  fail(key: string): void {
    const now = this.now();
    const list = this.recent(key, now);
    list.push(now);
    this.hits.set(key, list);
    if (this.hits.size > 10_000) this.hits.delete(this.hits.keys().next().value!);
  }
}


/** Sets the request's principal, or throws 401 (429 for a credential that failed too often). */
export type Authenticate = (c: Context<AppEnv>) => void;

/**
 * Bearer auth: `Authorization: Bearer <key>`; trusted in-process callers pass a principal in env.
 * Synchronous (a key check is a hash and at most one indexed read), so the request gate runs it
 * without a turn of its own.
 */
export function bearerAuth(keys: KeysService, resolvers: PrincipalResolver[] = []): Authenticate {
  const limiter = new FailureLimiter();
  return (c) => {
    const trusted = c.env?.trustedPrincipal;
    if (trusted) {
      c.set('principal', trusted);
      return;
    }
    // Anthropic clients send their key as x-api-key (the /v1 gateways accept it as a bearer key).
    const apiKey = c.req.path.startsWith('/v1/') ? requestHeader(c, 'x-api-key') : undefined;
    const header = requestHeader(c, 'authorization') ?? (apiKey ? `Bearer ${apiKey}` : '');
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    // The limiter knows a credential by its digest, so no presented secret stays in memory; a
    // bearer key's digest is the one its check looks up too (one hash per request).
    const credential = m ? keyDigest(m[1]) : header ? crypto.hash('sha256', header) : null;
    const wait = credential ? limiter.blockedFor(credential) : 0;
    // A blocked credential is not even checked; the app's session (a resolver) still gets in.
    const userId = m && credential && wait === 0 ? keys.verify(m[1], credential) : null;
    if (userId !== null) {
      c.set('principal', { userId, via: 'key' });
      return;
    }
    for (const resolve of resolvers) {
      const p = resolve(c);
      if (p) {
        c.set('principal', p);
        return;
      }
    }
    if (wait > 0) throw new PlatformError(429, `Too many failed authentication attempts with this key. Try again in ${wait} seconds.`, 'rate_limited', { retryAfter: wait });
    if (credential) limiter.fail(credential);
    throw new UnauthenticatedError();
  };
}
