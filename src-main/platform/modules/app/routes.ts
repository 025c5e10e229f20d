import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { appOperations } from '../../contract/app-settings.js';
import type { AppService } from './service.js';
import { usageReportRoute } from './usage-report-routes.js';
import type { UsersService } from '../access/users.js';

/** ext: what the app's Settings and Usage screens need. */
export function appSettingsRoutes({ app, users }: { app: AppService; users: UsersService }) {
  const r = createRouter();
  serveOperations(r, appOperations, {
    getApp: () => app.info(),
    getLocalhostSettings: () => app.localhost(),
    updateLocalhostSettings: ({ body }) => app.updateLocalhost(body),
    updateGpuSettings: ({ body }) => app.updateGpu(body.gpu),
    getAppPreferences: () => app.preferences(),
    updateAppPreferences: ({ body }) => app.updatePreferences(body),
    getUsage: ({ userId, query }) => app.usage.perDay(userId, query.days),
  });
  usageReportRoute(r, app.usage.report, users);
  return r;
}
