import path from 'node:path';
import { app } from 'electron';

export const APP_NAME = 'Agent Desk';

export interface DesktopPaths {
  /** The platform's data dir: Electron's userData, i.e. what defaultDataDir() computes. */
  dataDir: string;
  /** The seed catalog: packaged under process.resourcesPath (extraResources), else the repo's resources/. */
  resourcesDir: string;
  /** The built renderer (inside app.asar when packaged). */
  rendererDir: string;
  /** The sandboxed preload script (CommonJS: sandboxed preloads cannot be ES modules). */
  preload: string;
}

/**
 * Resolves every path once, before `ready` (Principle 8). The app name is set first because
 * userData derives from it: in development Electron would otherwise use package.json's
 * "agent-desk" and the desktop app would not see the data that `npm run serve` uses.
 * AGENT_DESK_DATA_DIR moves the data dir, as for serve.
 */
export function resolveDesktopPaths(env: Record<string, string | undefined> = process.env): DesktopPaths {
  app.setName(APP_NAME);
  if (env.AGENT_DESK_DATA_DIR) app.setPath('userData', path.resolve(env.AGENT_DESK_DATA_DIR));
  else app.setPath('userData', path.join(app.getPath('appData'), APP_NAME));
  const appPath = app.getAppPath();
  // The build's folder (electron.vite.config.ts): `out`, unless a build was made elsewhere.
  const out = env.AGENT_DESK_BUILD_OUT ?? 'out';
  return {
    dataDir: app.getPath('userData'),
    resourcesDir: app.isPackaged ? path.join(process.resourcesPath, 'resources') : path.join(appPath, 'resources'),
    rendererDir: path.join(appPath, out, 'renderer'),
    preload: path.join(appPath, out, 'preload', 'index.cjs'),
  };
}
