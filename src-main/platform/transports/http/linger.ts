import type { IncomingMessage } from 'node:http';

/** How long, and how much, an unread request body is drained after the answer went out. */
export const LINGER_MS = 5_000;
export const LINGER_BYTES = 64 * 1024 * 1024;

/**
 * nginx's lingering close: a request answered before its body was read (a 413 for an upload over
 * the limit) has the rest of its body read and discarded for a bounded time and amount before
 * the connection closes. Closing at once would reset the connection while the client is still
 * sending, and a client that sends its whole body before reading (Node's http, axios) would see
 * a broken pipe instead of the answer. Past the bounds the socket is closed anyway.
 */
export function lingerThenClose(incoming: IncomingMessage, bounds: { ms?: number; bytes?: number } = {}): void {
  if (incoming.readableEnded || incoming.destroyed) return;
  const maxBytes = bounds.bytes ?? LINGER_BYTES;
  let read = 0;
  const stop = () => {
    clearTimeout(timer);
    incoming.off('data', onData);
    incoming.off('end', done);
    incoming.off('error', done);
  };
  const done = () => stop();
  const close = () => {
    stop();
    const socket = incoming.socket;
    if (socket && !socket.destroyed) socket.destroySoon();
  };
  const onData = (chunk: Buffer) => {
    read += chunk.length;
    if (read > maxBytes) close();
  };
  const timer = setTimeout(close, bounds.ms ?? LINGER_MS);
  timer.unref();
  incoming.on('data', onData);
  incoming.on('end', done);
  incoming.on('error', done);
  incoming.resume();
}
