/**
 * The one narrow API the preload exposes to the renderer as `window.agentDesk`. Types only:
 * implemented by desktop/bridge-client.ts (bundled into the preload), used by src-renderer's desktop
 * transport. What it sends over the wire is declared in src-main/platform/contract/bridge.ts.
 */
import type { AppInfo, BridgeRequest, BridgeResponse, EngineState, PickedFile } from '../src-main/platform/contract/bridge';

// The wire's types, for the renderer's desktop transport (declared once, in contract/bridge.ts).
export type { AppInfo, BridgeRequest, BridgeResponse, EngineState, FromPlatform, PickedFile, ToPlatform } from '../src-main/platform/contract/bridge';

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

declare global {
  interface Window {
    agentDesk?: AgentDeskBridge;
  }
}
