import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF guard of outbound fetches to URLs a model or a user gave: only public unicast
 * addresses may be reached. A name is resolved once, every address it gives is checked, and the
 * connection goes to an address that was checked (the `lookup` hook below), so a name that
 * answers a public address to the check and 127.0.0.1 to the connection (DNS rebinding) cannot
 * slip through. Redirect hops go through the same hook.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (the system resolver by default; tests pass a loopback DNS server). */
export type Resolve = (host: string) => Promise<ResolvedAddress[]>;

export interface GuardOptions {
  resolve?: Resolve;
  /** Whether an address is refused; defaults to `isBlockedAddress`. */
  blocked?: (address: string) => boolean;
}

export const systemResolve: Resolve = async (host) => {
  const all = await dns.promises.lookup(host, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96), if any. */
function embeddedV4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = v6.parts;
  const lastTwo = (): ipaddr.IPv4 => new ipaddr.IPv4([p[6] >> 8, p[6] & 0xff, p[7] >> 8, p[7] & 0xff]);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  // ::a.b.c.d (deprecated "IPv4-compatible"); :: and ::1 themselves are judged as IPv6.
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7] > 1)) return lastTwo();
  if (v6.range() === 'rfc6052') return lastTwo();
  return null;
}

/**
 * Whether an address must not be fetched: everything but public unicast (loopback, private,
 * link-local incl. the 169.254.169.254 metadata service, unique-local, CGNAT, multicast,
 * reserved, documentation, 6to4/Teredo tunnels, unspecified), IPv4 carried in IPv6 judged as IPv4.
 * Anything that does not parse is refused.
 */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  // The zone of a link-local address (`fe80::1%eth0`) is not part of the address.
  const zone = bare.indexOf('%');
  const text = zone < 0 ? bare : bare.slice(0, zone);
  if (!ipaddr.isValid(text)) return true;
  let ip = ipaddr.parse(text);
  if (ip.kind() === 'ipv6') {
    const v4 = embeddedV4(ip as ipaddr.IPv6);
    if (v4) ip = v4;
  }
  return ip.range() !== 'unicast';
}

export class AddressRefused extends Error {
  constructor(
    readonly host: string,
    readonly reason: 'private' | 'unresolved',
  ) {
    super(reason === 'private' ? `Pages on local or private network addresses (${host}) cannot be fetched.` : `The host ${host} could not be resolved.`);
    this.name = 'AddressRefused';
  }
}

/**
 * Checks a URL's host: an IP literal directly, a name by resolving it once. Returns the checked
 * addresses (the connection must use one of them) or throws AddressRefused.
 */
export async function checkHost(hostname: string, opts: GuardOptions = {}): Promise<ResolvedAddress[]> {
  const blocked = opts.blocked ?? isBlockedAddress;
  const host = hostname.replace(/^\[|\]$/g, '');
  let addrs: ResolvedAddress[];
  if (net.isIP(host)) addrs = [{ address: host, family: net.isIPv6(host) ? 6 : 4 }];
  else {
    try {
      addrs = await (opts.resolve ?? systemResolve)(host);
    } catch {
      throw new AddressRefused(host, 'unresolved');
    }
    if (!addrs.length) throw new AddressRefused(host, 'unresolved');
  }
  // One refused address refuses the name: the connection could otherwise pick it.
  if (addrs.some((a) => blocked(a.address))) throw new AddressRefused(host, 'private');
  return addrs;
}

/**
 * A `lookup` for http(s).request / net.connect that resolves once and hands the socket only
 * addresses that passed the check. Node skips `lookup` for IP literals, so callers check those
 * with `checkHost` first (fetchPage does, for every hop).
 */
export function guardedLookup(opts: GuardOptions = {}): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void) => {
    checkHost(hostname, opts).then(
      (addrs) => {
        const wanted = options.family === 4 || options.family === 6 ? addrs.filter((a) => a.family === options.family) : addrs;
        if (!wanted.length) return callback(Object.assign(new Error(`No address of the requested family for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) callback(null, wanted);
        else callback(null, wanted[0].address, wanted[0].family);
      },
      (err: Error) => callback(Object.assign(err, { code: err instanceof AddressRefused && err.reason === 'private' ? 'EADDRREFUSED' : 'ENOTFOUND' }), '', 0),
    );
  }) as LookupFunction;
}
