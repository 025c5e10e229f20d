import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import type { KeysService } from '../../../modules/access/keys.js';
import type { Principal } from '../../../kernel/context.js';
import { PlatformError } from '../../../kernel/errors.js';

export class UnauthenticatedError extends PlatformError {
  constructor() {
    super(401, 'Unauthenticated.', 'unauthenticated');
  }
}

/** Extra ways in besides a bearer key (e.g. the browser-mode session cookie). */
export type PrincipalResolver = (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => Principal | null;

/** Failed attempts per client address: after `limit` in `windowMs`, answer 429 until the window passes. */
class FailureLimiter {
  private readonly hits = new Map<string, number[]>();
  constructor(
    private readonly limit = 30,
    private readonly windowMs = 60_000,
  ) {}
  private recent(key: string, now: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length) this.hits.set(key, list);
    else this.hits.delete(key);
    return list;
  }
  blockedFor(key: string): number {
    const now = Date.now();
    const list = this.recent(key, now);
    return list.length >= this.limit ? Math.ceil((list[0] + this.windowMs - now) / 1000) : 0;
  }
  fail(key: string): void {
    const now = Date.now();
    const list = this.recent(key, now);
    list.push(now);
    this.hits.set(key, list);
    if (this.hits.size > 10_000) this.hits.delete(this.hits.keys().next().value!);
  }
}

/** Bearer auth: `Authorization: Bearer <key>`; trusted in-process callers pass a principal in env. */
export function bearerAuth(keys: KeysService, resolvers: PrincipalResolver[] = []): MiddlewareHandler<AppEnv> {
  const limiter = new FailureLimiter();
  return async (c, next) => {
    const trusted = c.env?.trustedPrincipal;
    if (trusted) {
      c.set('principal', trusted);
      return next();
    }
    const client = c.env?.incoming?.socket?.remoteAddress ?? 'local';
    const wait = limiter.blockedFor(client);
    if (wait > 0) throw new PlatformError(429, `Too many failed authentication attempts. Try again in ${wait} seconds.`, 'rate_limited', { retryAfter: wait });
    const header = c.req.header('authorization') ?? '';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const userId = m ? keys.verify(m[1]) : null;
    if (userId !== null) {
      c.set('principal', { userId, via: 'key' });
      return next();
    }
    for (const resolve of resolvers) {
      const p = resolve(c);
      if (p) {
        c.set('principal', p);
        return next();
      }
    }
    if (header) limiter.fail(client);
    throw new UnauthenticatedError();
  };
}
