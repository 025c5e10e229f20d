/**
 * The desktop bridge's wire, declared once: what crosses the renderer's MessagePort to the
 * platform process (requests, streams and cancels, multiplexed by id) and what the preload and the
 * main process pass each other. Both sides import it: the client (desktop/bridge-client.ts, bundled
 * into the preload), the server (transports/port) and the main process (desktop/bridge.ts);
 * src-preload/api.ts builds the page's API from it.
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

export interface EngineState {
  running: boolean;
  /** What to tell the person while it does not run. */
  message?: string;
}
