import { getRequestListener } from '@hono/node-server';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Platform } from '../../platform.js';
import { applyConnectionLimits, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connection-limits.js';
import { warmRequestPath } from './warm.js';
import { lingerThenClose } from './linger.js';
import { PlatformError } from '../../kernel/errors.js';
import { apiDialect, toPlatformError } from './errors.js';

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  server: Server;
  /** Stops accepting, lets the platform finish its work, then drops the remaining connections. */
  close(): Promise<void>;
}


/** Serves the platform's app on HOST:PORT (loopback by default); port 0 takes a free one. */
export function listen(platform: Platform, opts: { host?: string; port?: number; limits?: Partial<ConnectionLimits> } = {}): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const limits: ConnectionLimits = { ...DEFAULT_CONNECTION_LIMITS, ...opts.limits };
  return new Promise((resolve, reject) => {
    const listener = getRequestListener(platform.app.fetch, {
      hostname: host,
      // The adapter's own drain of unread bodies gives up after half a second; lingerThenClose below replaces it.
      autoCleanupIncoming: false,
      // Requests the adapter cannot even turn into a Request (a malformed Host or path) get the
      // contract's envelope too, not an empty 400.
      errorHandler: (err) => {
        const e = (err as Error)?.name === 'RequestError' ? new PlatformError(400, 'Bad request: the request line or Host header is malformed.', 'bad_request') : toPlatformError(err, platform.log, { stage: 'adapter' });
        return apiDialect(e);
      },
    });
    const server = createServer({ connectionsCheckingInterval: limits.checkEveryMs }, (req, res) => {
      // A body left unread by the answer (a 413 upload) is drained, bounded, before the socket closes.
      if (req.method !== 'GET' && req.method !== 'HEAD') res.once('finish', () => lingerThenClose(req));
      void listener(req, res);
    });
    server.listen(opts.port ?? 8787, host);
    applyConnectionLimits(server, limits);
    server.keepAliveTimeout = 5_000;
    server.once('error', reject);
    server.once('listening', () => {
      // The router's matcher and the request schemas' parsers are built now, a step per turn, not in the first request.
      void warmRequestPath(platform.app);
      const addr = server.address() as AddressInfo;
      const shown = host.includes(':') ? `[${host}]` : host;
      let closing: Promise<void> | null = null;
      resolve({
        url: `http://${shown}:${addr.port}`,
        host,
        port: addr.port,
        server,
        close() {
          closing ??= (async () => {
            const stopped = new Promise<void>((r) => server.close(() => r()));
            server.closeIdleConnections();
            await platform.close();
            server.closeAllConnections();
            await stopped;
          })();
          return closing;
        },
      });
    });
  });
}
