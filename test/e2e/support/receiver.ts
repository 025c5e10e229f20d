import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  url: string;
  received: { headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/** A webhook endpoint on 127.0.0.1 that records what it gets and answers 200. */
export async function startReceiver(): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
