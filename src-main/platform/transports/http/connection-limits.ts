import type { IncomingMessage, Server } from 'node:http';

/**
 * Bounds on how slowly a client may send a request, so that a few hundred connections trickling
 * a byte every few seconds cannot hold every file descriptor. Answers (SSE streams, downloads)
 * are not bounded here: only receiving the request is.
 */
export interface ConnectionLimits {
  /** the request line and headers must arrive within this time */
  headersTimeoutMs: number;
  /** the whole request, body included, must arrive within this time (an upload of the largest allowed file on a slow link fits) */
  requestTimeoutMs: number;
  /** while a body is arriving, at least `bodyMinBytes` must come in every `bodyWindowMs`, else the connection is closed */
  bodyWindowMs: number;
  bodyMinBytes: number;
  /** how often Node checks the header and request timeouts */
  checkEveryMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 30 * 60_000,
  bodyWindowMs: 20_000,
  bodyMinBytes: 16 * 1024,
  checkEveryMs: 5_000,
};

/** Applies the header and whole-request timeouts and watches every body's progress. */
export function applyConnectionLimits(server: Server, limits: ConnectionLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.on('request', (req: IncomingMessage) => watchBodyProgress(req, limits));
}

/**
 * Closes the connection of a request whose body stalls: fewer than `bodyMinBytes` received in a
 * window. Counted on the socket, so a body the app has not started reading yet (auth is checked
 * first) still counts what the kernel delivered.
 */
export function watchBodyProgress(req: IncomingMessage, limits: Pick<ConnectionLimits, 'bodyWindowMs' | 'bodyMinBytes'>): void {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody || req.complete) return;
  const socket = req.socket;
  let last = socket.bytesRead;
  const timer = setInterval(() => {
    if (req.complete || socket.destroyed) return clearInterval(timer);
    const now = socket.bytesRead;
    if (now - last < limits.bodyMinBytes) {
      clearInterval(timer);
      socket.destroy();
      return;
    }
    last = now;
  }, limits.bodyWindowMs);
  timer.unref();
  req.once('close', () => clearInterval(timer));
}
