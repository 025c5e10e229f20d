import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHost, isBlockedAddress } from '../../src-main/platform/engine/tools/address-guard.js';
import { fetchPage } from '../../src-main/platform/engine/tools/web.js';
import { startDnsResponder, type DnsResponder } from './support/dns-responder.js';

interface Site {
  server: http.Server;
  port: number;
  hits: string[];
}

function site(host: string, port: number, handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Site> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve({ server, port: (server.address() as AddressInfo).port, hits }));
  });
}

const page = (text: string) => (_req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(text);
};

// 127.0.0.2 plays a public host: the only address the test policy lets through.
const PUBLIC = '127.0.0.2';
const policy = (a: string) => a !== PUBLIC && isBlockedAddress(a);

describe('fetch_page address guard', () => {
  let secret: Site;
  let pub: Site;
  let dns: DnsResponder;
  const signal = new AbortController().signal;

  beforeAll(async () => {
    secret = await site('127.0.0.1', 0, page('the private page'));
    // Same port on the "public" address: a connection to the wrong one would still succeed.
    pub = await site(PUBLIC, secret.port, (req, res) => {
      if (req.url === '/to-mapped') return res.writeHead(302, { location: `http://[::ffff:7f00:1]:${secret.port}/secret` }).end();
      if (req.url === '/to-compat') return res.writeHead(302, { location: `http://[0:0:0:0:0:ffff:127.0.0.1]:${secret.port}/secret` }).end();
      if (req.url === '/to-name') return res.writeHead(301, { location: `http://inside.test:${secret.port}/secret` }).end();
      page('the public page')(req, res);
    });
    dns = await startDnsResponder({
      // public to the first question, loopback to any later one (DNS rebinding)
      'rebind.test': [PUBLIC, '127.0.0.1'],
      'inside.test': ['127.0.0.1'],
      'metadata.test': ['169.254.169.254'],
    });
  });
  afterAll(async () => {
    await dns.close();
    await new Promise((r) => secret.server.close(r));
    await new Promise((r) => pub.server.close(r));
  });

  it('judges IPv4 carried in IPv6 as IPv4 and refuses every non-public range', () => {
    const blocked = [
      '::ffff:7f00:1', '::ffff:127.0.0.1', '0:0:0:0:0:ffff:127.0.0.1', '::ffff:a9fe:a9fe', '::ffff:c0a8:101', '::127.0.0.1', '::7f00:1',
      '64:ff9b::a9fe:a9fe', '127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.127.255.254', '0.0.0.0',
      '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12:3456::1', 'ff02::1', '2002:7f00:1::1', 'not-an-ip',
    ];
    for (const ip of blocked) expect(isBlockedAddress(ip), ip).toBe(true);
    for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8', '172.32.0.1', '100.128.0.1']) expect(isBlockedAddress(ip), ip).toBe(false);
  });

  it('refuses IPv4-mapped literals of loopback without connecting', async () => {
    for (const host of ['[::ffff:127.0.0.1]', '[0:0:0:0:0:ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::127.0.0.1]', '127.1', '2130706433', '0x7f000001']) {
      expect(await fetchPage(`http://${host}:${secret.port}/secret`, signal), host).toMatch(/cannot be fetched/);
    }
    expect(secret.hits).toEqual([]);
  });

  it('checks every redirect hop, literal or name', async () => {
    const guard = { resolve: dns.resolve, blocked: policy };
    expect(await fetchPage(`http://${PUBLIC}:${pub.port}/plain`, signal, { guard })).toBe('the public page');
    for (const path of ['/to-mapped', '/to-compat', '/to-name']) {
      expect(await fetchPage(`http://${PUBLIC}:${pub.port}${path}`, signal, { guard }), path).toMatch(/cannot be fetched/);
    }
    expect(secret.hits).toEqual([]);
  });

  it('connects to the address it checked: a rebinding name never reaches loopback', async () => {
    const guard = { resolve: dns.resolve, blocked: policy };
    const before = dns.queries.get('rebind.test') ?? 0;
    expect(await fetchPage(`http://rebind.test:${pub.port}/`, signal, { guard })).toBe('the public page');
    // Resolved exactly once: the check's answer is the connection's.
    expect((dns.queries.get('rebind.test') ?? 0) - before).toBe(1);
    // The name now answers 127.0.0.1: refused.
    expect(await fetchPage(`http://rebind.test:${pub.port}/`, signal, { guard })).toMatch(/cannot be fetched/);
    await expect(checkHost('metadata.test', guard)).rejects.toThrow(/cannot be fetched/);
    expect(await fetchPage(`http://nowhere.test:${pub.port}/`, signal, { guard })).toMatch(/could not be resolved/);
    expect(secret.hits).toEqual([]);
  });
});
