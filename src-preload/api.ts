/**
 * The one narrow API the preload exposes to the renderer as `window.agentDesk`.
 * Types only: shared by src-preload (implements it), the platform process (serves it over a
 * MessagePort), src-main/desktop (hands the port over) and src-renderer (its desktop transport).
 */
export interface BridgeRequest {
  method: string;
  /** Path and query, e.g. `/api/agents?page=2`. */
  path: string;
  headers?: Record<string, string>;
  /** JSON text, or raw bytes (multipart uploads). */
  body?: string | ArrayBuffer;
}

export interface BridgeResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The renderer's one MessagePort to the platform process carries every call, multiplexed by id:
 * whole requests, streams (chunks in order, then one end) and cancels. The preload is the client side,
 * platform/transports/port the server side.
 */
export type ToPlatform =
  | { t: 'request'; id: number; req: BridgeRequest }
  | { t: 'stream'; id: number; req: BridgeRequest }
  /** The renderer stopped reading a stream: the read ends, the execution goes on (CONTRACT). */
  | { t: 'cancel'; id: number };

export type FromPlatform =
  | { t: 'response'; id: number; res: BridgeResponse }
  | { t: 'chunk'; id: number; text: string }
  | { t: 'end'; id: number; status: number; error?: string };

export interface PickedFile {
  name: string;
  type: string;
  data: ArrayBuffer;
}

export interface AppInfo {
  version: string;
  platform: string;
  /** The localhost API's base URL when it is on, else null. */
  apiUrl: string | null;
  dataDir: string;
}

export interface AgentDeskBridge {
  request(req: BridgeRequest): Promise<BridgeResponse>;
  /**
   * Streams a response body (SSE) over a MessagePort: `onChunk` gets text as it arrives,
   * `onEnd` the status (and an error text if the stream broke). Returns a cancel function.
   */
  stream(req: BridgeRequest, onChunk: (text: string) => void, onEnd: (status: number, error?: string) => void): () => void;
  openFiles(): Promise<PickedFile[]>;
  appInfo(): Promise<AppInfo>;
  /**
   * Hears when the platform process (the engine) stops and when it runs again; told at once if it
   * is down now. Calls under way when it stops fail with a sentence; calls made meanwhile wait.
   * Returns a function that stops listening.
   */
  onEngine?(listener: (state: EngineState) => void): () => void;
  /** Tells the desktop shell the language the page speaks now ("en" | "pt-BR"): its menu and notices follow. */
  setLocale?(locale: string): void;
}

export interface EngineState {
  running: boolean;
  /** What to tell the person while it does not run. */
  message?: string;
}

declare global {
  interface Window {
    agentDesk?: AgentDeskBridge;
  }
}
