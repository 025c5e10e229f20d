import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Platform } from './platform.js';

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  server: Server;
  /** Stops accepting, lets the platform finish its work, then drops the remaining connections. */
  close(): Promise<void>;
}

/** Serves the platform's app on HOST:PORT (loopback by default); port 0 takes a free one. */
export function listen(platform: Platform, opts: { host?: string; port?: number } = {}): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: platform.app.fetch, hostname: host, port: opts.port ?? 8787 }) as Server;
    server.headersTimeout = 30_000;
    server.requestTimeout = 0; // uploads and SSE streams may legitimately take long
    server.keepAliveTimeout = 5_000;
    server.once('error', reject);
    server.once('listening', () => {
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
