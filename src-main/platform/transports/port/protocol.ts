// The wire between the preload and this transport is declared with the bridge's API (src-preload/api.ts).
export type { ToPlatform, FromPlatform } from '../../../../src-preload/api.js';

/** What the server needs of a port: Electron's MessagePortMain, or a stand-in in tests. */
export interface PortLike {
  postMessage(message: unknown): void;
  start(): void;
  close(): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}
