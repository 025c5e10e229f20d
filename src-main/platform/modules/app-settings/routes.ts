import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { appOperations } from '../../contract/app-settings.js';
import type { AppSettingsService } from './service.js';

/** ext: what the app's Settings screen needs. */
export function appSettingsRoutes({ appSettings }: { appSettings: AppSettingsService }) {
  const r = createRouter();
  serveOperations(r, appOperations, {
    getApp: () => appSettings.info(),
    getLocalhostSettings: () => appSettings.localhost(),
    updateLocalhostSettings: ({ body }) => appSettings.updateLocalhost(body),
    updateGpuSettings: ({ body }) => appSettings.updateGpu(body.gpu),
    getAppPreferences: () => appSettings.preferences(),
    updateAppPreferences: ({ body }) => appSettings.updatePreferences(body),
  });
  return r;
}
