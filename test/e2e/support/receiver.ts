import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  url: string;
  received: { headers: http.IncomingHttpHeaders; body: string }[];
  /** What it answers from now on (200 `{"ok":true}` unless told otherwise). */
  answer: { status: number; body: string };
  close(): Promise<void>;
}

/** A webhook endpoint on 127.0.0.1 that records what it gets and answers 200, or `answer`. */
export async function startReceiver(answer: Receiver['answer'] = { status: 200, body: '{"ok":true}' }): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const state = { answer };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(state.answer.status, { 'content-type': 'application/json' }).end(state.answer.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    get answer() {
      return state.answer;
    },
    set answer(a) {
      state.answer = a;
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
