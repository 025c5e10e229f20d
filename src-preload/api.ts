/**
 * The one narrow API the preload exposes to the renderer as `window.agentDesk`.
 * Types only: shared by src-preload (implements it), src-main/desktop (serves it) and
 * src-renderer (its desktop transport).
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
}

declare global {
  interface Window {
    agentDesk?: AgentDeskBridge;
  }
}
