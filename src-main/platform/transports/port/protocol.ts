// The wire between the preload and this transport is declared once, in contract/bridge.ts.
export type { ToPlatform, FromPlatform } from '../../contract/bridge.js';

/** What the server needs of a port: Electron's MessagePortMain, or a stand-in in tests. */
export interface PortLike {
  postMessage(message: unknown): void;
  start(): void;
  close(): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}
