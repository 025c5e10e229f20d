import type { Context } from 'hono';
import type { AppEnv } from '../env.js';
import { requestHeader } from '../request-header.js';
import { ForbiddenError } from '../../../kernel/errors.js';

/** Loopback names that a browser can only reach on this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '[::1]' || h === '::1';
}

export function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.split(':')[0];
}

/**
 * DNS-rebinding guard: a request whose Host is not a loopback name (or one the user allowed)
 * is refused, so a web page on evil.example that resolves to 127.0.0.1 gets nothing.
 */
export function hostGuard(allowed: () => string[]): (c: Context<AppEnv>) => void {
  // The last Host found to be a loopback name: every request of a local client sends the same one.
  let loopback: string | undefined;
  return (c) => {
    if (c.env?.trustedPrincipal) return;
    const host = requestHeader(c, 'host');
    if (host !== undefined && host === loopback) return;
    const name = host ? hostnameOf(host) : '';
    // Loopback first: the common case then never reads the allowlist (a settings query per request).
    if (name && isLoopbackHost(name)) {
      loopback = host;
      return;
    }
    const extra = allowed().map((h) => h.toLowerCase());
    if (!name || !(extra.includes(name) || extra.includes(host!.toLowerCase()))) {
      throw new ForbiddenError('Host not allowed: requests must be addressed to localhost or a host allowed in Settings.');
    }
  };
}
