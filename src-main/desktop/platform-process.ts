import { EventEmitter } from 'node:events';
import type { MainToPlatform, PlatformToMain, StartOptions } from '../platform/host/protocol.js';
import type { LauncherPort } from './reader-launcher.js';
import { CHANNELS, ENGINE_RESTARTING, ENGINE_GAVE_UP } from './channels.js';
import { RestartSupervisor } from '../platform/kernel/supervisor.js';

/** The parts of Electron's UtilityProcess the main process uses of the platform's. */
export interface PlatformChild {
  readonly pid: number | undefined;
  postMessage(message: MainToPlatform, transfer?: never[]): void;
  kill(): boolean;
  on(event: 'message', listener: (message: PlatformToMain) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
}

/** Electron's MessagePortMain, as far as it is handed around here. */
export type MainPort = LauncherPort;

/** A page the platform serves: Electron's WebContents, as far as the hand-over needs it. */
export interface PageLike {
  postMessage(channel: string, message: unknown, transfer?: never[]): void;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  once(event: 'destroyed', listener: () => void): unknown;
}

export interface PlatformProcessDeps {
  /** utilityProcess.fork of the platform entry. */
  fork(): PlatformChild;
  /** new MessageChannelMain(). */
  channel(): { port1: MainPort; port2: MainPort };
  options(): StartOptions;
  /** Opens secrets an older version sealed with the keychain directly. */
  openLegacy(sealed: unknown): (string | null)[];
  /** Serves the platform's launcher of reading processes on the main side. */
  serveReaders(port: MainPort): { close(): void };
  /** Waits before restart n (0-based) after a crash. */
  backoffMs?: readonly number[];
  /** How long the platform may take to finish its work on quit before it is killed. */
  stopTimeoutMs?: number;
  /** How long a question to the platform (its API's URL) waits for the answer (2 s by default). */
  replyTimeoutMs?: number;
  log?: (message: string, extra?: object) => void;
}

/** Restarts after a crash wait 0.25 s, then longer, at most 10 s; a platform that stayed up a minute starts the count again. */
export const RESTART_BACKOFF_MS = [250, 1000, 2000, 5000, 10_000] as const;
const STABLE_MS = 60_000;
/** Crashes in a row after which the main process stops restarting and says so. */
export const MAX_RESTARTS = 8;

export class StartFailure extends Error {
  constructor(
    message: string,
    readonly startup: boolean,
    stack?: string,
  ) {
    super(message);
    if (stack) this.stack = stack;
  }
}

/**
 * The platform's utility process, seen from the main process (ARCHITECTURE Principle 3): it
 * starts it, restarts it when it dies (bounded back-off), hands each page a MessagePort to it (a
 * new one after a restart), answers its requests (legacy secrets), and stops it on quit. The
 * database is the platform's alone; its start-up recovery ends executions a crash cut off as
 * `failed`, and a crash loses no acknowledged write (each was committed before its answer).
 *
 * Events: 'ready' (apiUrl) after every start, 'down' (message) when it died and will restart,
 * 'gave-up' (message) when it kept dying.
 */
export class PlatformProcess extends EventEmitter {
  private child: PlatformChild | null = null;
  private readers: { close(): void } | null = null;
  private ready = false;
  private stopping = false;
  /** Restarts after a crash wait longer each time; a platform that stayed up a minute starts the count again. */
  private readonly restart: RestartSupervisor;
  private nextId = 1;
  private readonly replies = new Map<number, (value: unknown) => void>();
  private readonly pages = new Set<PageLike>();
  private first: { resolve: (apiUrl: string | null) => void; reject: (err: Error) => void } | null = null;
  apiUrlCache: string | null = null;

  constructor(private readonly d: PlatformProcessDeps) {
    super();
    this.restart = new RestartSupervisor({ schedule: { waits: d.backoffMs ?? RESTART_BACKOFF_MS }, healthyMs: STABLE_MS, giveUpAfter: MAX_RESTARTS });
  }

  /** Starts the platform; resolves once it serves, rejects with its sentence when it cannot start. */
  start(): Promise<string | null> {
    return new Promise((resolve, reject) => {
      this.first = { resolve, reject };
      this.launch();
    });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.ready;
  }

  private launch(): void {
    const child = this.d.fork();
    this.child = child;
    this.ready = false;
    this.restart.started();
    const { port1, port2 } = this.d.channel();
    this.readers = this.d.serveReaders(port2);
    child.on('message', (m) => this.receive(child, m));
    child.on('exit', (code) => this.exited(child, code));
    child.postMessage({ type: 'readers' }, [port1] as never[]);
    child.postMessage({ type: 'start', options: this.d.options() });
  }

  private receive(child: PlatformChild, m: PlatformToMain): void {
    if (child !== this.child || !m || typeof m !== 'object') return;
    switch (m.type) {
      case 'ready': {
        this.ready = true;
        this.apiUrlCache = m.apiUrl;
        for (const page of this.pages) this.handOver(page);
        const first = this.first;
        this.first = null;
        first?.resolve(m.apiUrl);
        this.emit('ready', m.apiUrl);
        return;
      }
      case 'failed': {
        const err = new StartFailure(m.message, m.startup, m.stack);
        const first = this.first;
        this.first = null;
        if (first) {
          // The first start: the app cannot go on (told in a dialog); no restart.
          this.stopping = true;
          child.kill();
          first.reject(err);
        } else {
          this.d.log?.('the platform could not restart', { message: m.message });
          child.kill();
        }
        return;
      }
      case 'reply': {
        const resolve = this.replies.get(m.id);
        this.replies.delete(m.id);
        return resolve?.(m.value);
      }
      case 'open-legacy':
        return child.postMessage({ type: 'reply', id: m.id, value: this.d.openLegacy(m.sealed) });
      case 'stopped':
        return;
    }
  }

  private exited(child: PlatformChild, code: number): void {
    if (child !== this.child) return;
    this.child = null;
    this.ready = false;
    this.readers?.close();
    this.readers = null;
    for (const resolve of this.replies.values()) resolve(null);
    this.replies.clear();
    if (this.stopping) {
      this.emit('exit', code);
      return;
    }
    if (this.first) {
      const first = this.first;
      this.first = null;
      this.stopping = true;
      first.reject(new StartFailure(`The platform process ended while starting (exit code ${code}).`, false));
      return;
    }
    const wait = this.restart.died();
    const message = ENGINE_RESTARTING;
    this.d.log?.('the platform process stopped; restarting it', { code, crashes: this.restart.failures });
    for (const page of this.pages) if (!page.isDestroyed()) page.send(CHANNELS.engine, { running: false, message });
    if (wait === null) {
      const stopped = ENGINE_GAVE_UP;
      for (const page of this.pages) if (!page.isDestroyed()) page.send(CHANNELS.engine, { running: false, message: stopped });
      this.emit('gave-up', stopped);
      return;
    }
    this.emit('down', message);
    setTimeout(() => {
      if (!this.stopping && !this.child) this.launch();
    }, wait);
  }

  /** A page asked for its port: handed over now, or as soon as the platform serves. */
  connect(page: PageLike): void {
    if (!this.pages.has(page)) {
      this.pages.add(page);
      page.once('destroyed', () => this.pages.delete(page));
    }
    if (this.ready) this.handOver(page);
  }

  private handOver(page: PageLike): void {
    if (page.isDestroyed() || !this.child) return;
    const { port1, port2 } = this.d.channel();
    this.child.postMessage({ type: 'bridge' }, [port1] as never[]);
    page.postMessage(CHANNELS.port, null, [port2] as never[]);
  }

  /**
   * The localhost API's URL, asked of the platform (null when it is off or the platform is down).
   * A platform too busy to answer in time gets the URL it last gave: a menu or the About box never
   * waits on it.
   */
  apiUrl(): Promise<string | null> {
    const child = this.child;
    if (!child || !this.ready) return Promise.resolve(null);
    return new Promise((resolve) => {
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.replies.delete(id);
        resolve(this.apiUrlCache);
      }, this.d.replyTimeoutMs ?? 2_000);
      this.replies.set(id, (v) => {
        clearTimeout(timer);
        if (typeof v === 'string' || v === null) this.apiUrlCache = v;
        resolve(typeof v === 'string' ? v : null);
      });
      child.postMessage({ type: 'api-url', id });
    });
  }

  /** Quit: the platform finishes running work and closes its database, then exits (killed past the timeout). */
  stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => child.kill(), this.d.stopTimeoutMs ?? 30_000);
      this.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.postMessage({ type: 'stop' });
    });
  }
}
