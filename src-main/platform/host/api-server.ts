import type { Server } from 'node:http';
import { listen, LOCALHOST_SETTINGS_EVENT, type Platform, type RunningServer } from '../platform.js';

export const API_HOST = '127.0.0.1';

/**
 * The desktop app's localhost API for other tools (curl, n8n, the openai SDK), on/off and port
 * from Settings (default on, 127.0.0.1:8787). A taken port falls back to a free one rather
 * than failing the app. Re-listens when the settings change.
 */
export class ApiServer {
  private running: RunningServer | null = null;
  private wantedPort: number | null = null;
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly onChange = () => void this.apply();
  /** Set when the configured port was taken and another one is used. */
  fallbackFrom: number | null = null;

  constructor(
    private readonly platform: Platform,
    private readonly listenFn: typeof listen = listen,
  ) {}

  get url(): string | null {
    return this.running?.url ?? null;
  }

  /** Starts per settings and follows their changes. */
  async start(): Promise<void> {
    this.platform.events.on(LOCALHOST_SETTINGS_EVENT, this.onChange);
    await this.apply();
  }

  /** Brings the server in line with the settings; calls run one after another. */
  apply(): Promise<void> {
    this.queue = this.queue.then(() => this.reconcile()).catch((err) => this.platform.log.error({ err }, 'localhost API: could not apply settings'));
    return this.queue;
  }

  private async reconcile(): Promise<void> {
    if (this.stopped) return;
    const { enabled, port } = this.platform.services.appSettings.localhost();
    if (!enabled) return this.close();
    if (this.running && this.wantedPort === port) return;
    await this.close();
    this.wantedPort = port;
    this.fallbackFrom = null;
    try {
      this.running = await this.listenFn(this.platform, { host: API_HOST, port });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      this.running = await this.listenFn(this.platform, { host: API_HOST, port: 0 });
      this.fallbackFrom = port;
      this.platform.log.warn({ port, using: this.running.port }, 'localhost API: port taken, using a free one');
    }
    this.platform.log.info({ url: this.running.url }, 'localhost API listening');
  }

  /** Stops listening without closing the platform (RunningServer.close would close it too). */
  private async close(): Promise<void> {
    const r = this.running;
    this.running = null;
    this.wantedPort = null;
    if (!r) return;
    await closeServer(r.server);
  }

  /**
   * Stops following settings and listening (quit). `finish` runs after new connections are
   * refused but before open ones are dropped, so streams of running executions can end cleanly.
   */
  async stop(finish?: () => Promise<void>): Promise<void> {
    this.platform.events.off(LOCALHOST_SETTINGS_EVENT, this.onChange);
    this.stopped = true;
    // Queued after any re-listen in progress, so that one is closed too.
    const done = this.queue.then(() => {
      const r = this.running;
      this.running = null;
      this.wantedPort = null;
      return closeServer(r?.server, finish);
    });
    this.queue = done.catch(() => {});
    await done;
  }
}

async function closeServer(server: Server | undefined, finish?: () => Promise<void>): Promise<void> {
  if (!server) return finish?.();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  try {
    await finish?.();
  } finally {
    // Open SSE streams would hold close() forever; the executions themselves continue in-process.
    server.closeAllConnections();
    await closed;
  }
}
