import { createRoute } from '@hono/zod-openapi';
import { createRouter, errorResponses, ok, jsonBodyOf } from '../../transports/http/router.js';
import { AppInfo, GpuInfo, GpuSettingsUpdate, LocalhostSettings, LocalhostSettingsUpdate, Usage, UsageQuery } from '../../contract/app-settings.js';
import type { AppService } from './service.js';
import { usageReportRoute } from './usage-report-routes.js';
import type { UsersService } from '../access/users.js';

/** ext: what the app's Settings and Usage screens need. */
export function appSettingsRoutes({ app, users }: { app: AppService; users: UsersService }) {
  const r = createRouter();
  const tags = ['App'];

  r.openapi(
    createRoute({ method: 'get', path: '/app', tags, summary: 'About this Agent Desk (ext)', responses: { ...ok(AppInfo), ...errorResponses } }),
    (c) => c.json(app.info(), 200),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/settings/localhost', tags, summary: 'Localhost API settings (ext)', responses: { ...ok(LocalhostSettings), ...errorResponses } }),
    (c) => c.json(app.localhost(), 200),
  );

  r.openapi(
    createRoute({
      method: 'put',
      path: '/settings/localhost',
      tags,
      summary: 'Change localhost API settings (ext); omitted fields stay as they are',
      description: 'The desktop app applies `enabled` and `port` at once (re-listening); `npm run serve` takes its port from --port / AGENT_DESK_PORT.',
      request: jsonBodyOf(LocalhostSettingsUpdate),
      responses: { ...ok(LocalhostSettings), ...errorResponses },
    }),
    (c) => c.json(app.updateLocalhost(c.req.valid('json')), 200),
  );

  r.openapi(
    createRoute({
      method: 'put',
      path: '/settings/gpu',
      tags,
      summary: 'GPU for local GGUF models (ext): auto, off, cuda, vulkan or metal',
      description: 'Applies when the local engine first starts, else on the next start of the app (`restart_required`). AGENT_DESK_GPU, when set, wins (`from_env`).',
      request: jsonBodyOf(GpuSettingsUpdate),
      responses: { ...ok(GpuInfo), ...errorResponses },
    }),
    (c) => c.json(app.updateGpu(c.req.valid('json').gpu), 200),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/usage', tags, summary: 'Credits per day (ext)', request: { query: UsageQuery }, responses: { ...ok(Usage), ...errorResponses } }),
    (c) => c.json(app.usage.perDay(c.get('principal').userId, c.req.valid('query').days), 200),
  );
  usageReportRoute(r, app.usage.report, users);
  return r;
}
