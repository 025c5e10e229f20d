/**
 * What the Electron main process and the platform process say to each other over the utility
 * process's parent port (types only; neither side imports the other's code).
 */

export interface StartOptions {
  dataDir: string;
  resourcesDir: string;
  /**
   * The data key secrets are sealed with (base64, 32 bytes), itself kept sealed by the OS keychain
   * (safeStorage) in the main process; null when the keychain does not really encrypt.
   */
  dataKey: string | null;
  /** Shown in the sentence of a SQLite addon that cannot load. */
  bindingFix?: string;
}

export type MainToPlatform =
  | { type: 'start'; options: StartOptions }
  /** With one port: the launcher of reading processes (the main process forks them). */
  | { type: 'readers' }
  /** With one port: a renderer's bridge (the window loaded, or the platform restarted). */
  | { type: 'bridge' }
  | { type: 'api-url'; id: number }
  /** Answers to the platform's requests (legacy secrets opened by the keychain). */
  | { type: 'reply'; id: number; value: unknown }
  /** Quit: finish running work, close the database, then exit. */
  | { type: 'stop' };

export type PlatformToMain =
  | { type: 'ready'; apiUrl: string | null }
  /** A start that cannot go on; `startup` marks a one-sentence StartupError (no stack in the dialog). */
  | { type: 'failed'; message: string; stack?: string; startup: boolean }
  | { type: 'reply'; id: number; value: unknown }
  /** Secrets sealed by an older Agent Desk directly with safeStorage, to be opened by the keychain. */
  | { type: 'open-legacy'; id: number; sealed: string[] }
  | { type: 'stopped' };

/** Electron's MessageEvent of a parent port or a MessagePortMain. */
export interface PortEvent {
  data: unknown;
  ports: PortMain[];
}

/** The parts of Electron's MessagePortMain the platform uses. */
export interface PortMain {
  postMessage(message: unknown): void;
  start(): void;
  close(): void;
  on(event: 'message', listener: (e: PortEvent) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

/** `process.parentPort` in an Electron utility process. */
export interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: PortEvent) => void): unknown;
}

/** The parent port when this process is an Electron utility process (or a stand-in of one), else null. */
export function parentPortOf(p: NodeJS.Process = process): ParentPort | null {
  return (p as NodeJS.Process & { parentPort?: ParentPort }).parentPort ?? null;
}
