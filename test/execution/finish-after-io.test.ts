import fs from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePlatform } from '../api/helpers.js';
import { insertExecution } from './helpers.js';
import { ExecutionsStore } from '../../src-main/platform/modules/executions/store.js';
import { nowMicros } from '../../src-main/platform/kernel/time.js';

/**
 * The end of an execution is an fsync'd commit that holds the event loop: it waits for the I/O
 * that is already due (a client's read of another stream's first text, a new request), and then
 * still batches every end of that turn into one commit.
 */
describe('finishSoon lets due I/O go first', () => {
  let p: ReturnType<typeof makePlatform>;
  let store: ExecutionsStore;
  let server: net.Server;
  let port = 0;
  beforeAll(async () => {
    p = makePlatform();
    store = new ExecutionsStore(p.db);
    server = net.createServer((s) => s.on('data', () => s.emit('got')));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    store.close();
    await new Promise((r) => server.close(r));
    await p.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
  });

  const newExecution = () => insertExecution(p, store);
  const status = (id: number) => (p.db.prepare('SELECT status FROM executions WHERE id = ?').get(id) as { status: string }).status;

  it('bytes that arrived before the end was asked for are read before the end is written; ends of one turn commit together', async () => {
    const [a, b] = [newExecution(), newExecution()];
    const accepted = new Promise<net.Socket>((r) => server.once('connection', r));
    const client = net.connect(port, '127.0.0.1');
    await new Promise((r) => client.once('connect', r));
    const socket = await accepted;
    try {
      const seen: string[] = [];
      socket.once('got', () => seen.push(`read while ${status(a)}`));
      // On loopback the bytes are in the server's socket buffer when write() returns: due at the next poll.
      client.write('x');
      const end = (id: number) => ({ id, status: 'succeeded' as const, output: 'done', errorMessage: null, errorCode: null, credits: 1, inputTokens: 1, outputTokens: 1, outputFileId: null, provider: null, now: nowMicros() });
      await Promise.all([store.finishSoon(end(a)), store.finishSoon(end(b))]);
      expect(seen).toEqual(['read while starting']);
      expect([status(a), status(b)]).toEqual(['succeeded', 'succeeded']);
    } finally {
      client.destroy();
      socket.destroy();
    }
  });
});
