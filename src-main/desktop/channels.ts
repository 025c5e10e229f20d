import { desktopWords } from './words';

/**
 * IPC channel names shared by the preload and the main process (one place, so the two sides
 * cannot drift apart). Requests and streams do not use IPC: they go over the MessagePort the
 * main process hands the page, straight to the platform process.
 */
export const CHANNELS = {
  /** Page → main: give me a port to the platform (sent when the preload starts). */
  connect: 'agent-desk:connect',
  /** Main → page: a port to the platform (at start, and again after the platform restarted). */
  port: 'agent-desk:port',
  /** Main → page: the platform process stopped (and is restarting), or runs again. */
  engine: 'agent-desk:engine',
  openFiles: 'agent-desk:open-files',
  appInfo: 'agent-desk:app-info',
  /** Page → main: the language the window speaks now (the menu and the shell's words follow it). */
  locale: 'agent-desk:locale',
} as const;

export type { EngineState } from '../platform/contract/bridge';

// The main process words the engine's state in English; the page's bridge reads it in the page's language.
export const ENGINE_RESTARTING = desktopWords('en').engine.restarting;
export const ENGINE_GAVE_UP = desktopWords('en').engine.gaveUp;
/** What a request or a stream that was under way when the engine stopped ends with. */
export const ENGINE_STOPPED_ERROR = desktopWords('en').engine.stopped;
