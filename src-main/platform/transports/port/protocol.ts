// The wire between the preload and this transport is declared once, in contract/bridge.ts.
export type { ToPlatform, FromPlatform } from '../../contract/bridge.js';

import type { LauncherPort } from '../../kernel/reader-launcher.js';

/** What the server needs of a port: the same parts of Electron's MessagePortMain the reader launch uses (or a stand-in in tests). */
export type PortLike = LauncherPort;
