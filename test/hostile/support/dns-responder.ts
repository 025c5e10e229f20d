import dgram from 'node:dgram';
import dns from 'node:dns';
import type { Resolve } from '../../../src-main/platform/engine/tools/address-guard.js';

/**
 * A tiny DNS server on loopback for rebinding tests: each A query for a name gets the next
 * address of its list (the last one repeats). Nothing outside the test talks to it; close() after.
 */
export interface DnsResponder {
  port: number;
  /** A queries received per name */
  queries: Map<string, number>;
  /** a resolver that asks only this server */
  resolve: Resolve;
  close(): Promise<void>;
}

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let i = offset;
  while (msg[i] !== 0) {
    labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString('ascii'));
    i += msg[i] + 1;
  }
  return { name: labels.join('.').toLowerCase(), end: i + 1 };
}

export async function startDnsResponder(answers: Record<string, string[]>): Promise<DnsResponder> {
  const socket = dgram.createSocket('udp4');
  const queries = new Map<string, number>();
  socket.on('message', (msg, rinfo) => {
    const { name, end } = readName(msg, 12);
    const qtype = msg.readUInt16BE(end);
    const question = msg.subarray(12, end + 4);
    const list = answers[name];
    const n = queries.get(name) ?? 0;
    if (qtype === 1) queries.set(name, n + 1);
    const ip = qtype === 1 && list?.length ? list[Math.min(n, list.length - 1)] : null;
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2); // id
    header.writeUInt16BE(list ? 0x8180 : 0x8183, 2); // response, recursion available; NXDOMAIN for unknown names
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(ip ? 1 : 0, 6);
    const parts = [header, question];
    if (ip) {
      const rr = Buffer.alloc(16);
      rr.writeUInt16BE(0xc00c, 0); // pointer to the question's name
      rr.writeUInt16BE(1, 2); // A
      rr.writeUInt16BE(1, 4); // IN
      rr.writeUInt32BE(0, 6); // TTL 0: nothing may cache it
      rr.writeUInt16BE(4, 10);
      ip.split('.').forEach((b, k) => rr.writeUInt8(Number(b), 12 + k));
      parts.push(rr);
    }
    socket.send(Buffer.concat(parts), rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  const port = socket.address().port;
  const resolver = new dns.promises.Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  return {
    port,
    queries,
    resolve: async (host) => (await resolver.resolve4(host)).map((address) => ({ address, family: 4 as const })),
    close: () => new Promise<void>((r) => socket.close(() => r())),
  };
}
