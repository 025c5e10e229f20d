import { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import type { AppEnv } from './env.js';
import type { TransportDeps } from '../deps.js';
import { hostGuard } from './middleware/host-guard.js';
import { cors } from './middleware/cors.js';
import { bearerAuth, type PrincipalResolver } from './middleware/auth.js';
import { jsonBody } from './middleware/json-body.js';
import { errorResponse } from './errors.js';
import { agentRoutes } from '../../modules/agents/routes.js';
import { memoryRoutes } from '../../modules/memories/routes.js';
import { webhookRoutes } from '../../modules/webhooks/routes.js';
import { webhookDeliveryRoutes } from '../../modules/webhooks/deliveries-routes.js';
import { keyRoutes } from '../../modules/access/routes.js';
import { exportRoutes } from '../../modules/archive/routes.js';
import { fileRoutes } from '../../modules/files/routes.js';
import { appSettingsRoutes } from '../../modules/app/routes.js';
import { remoteRoutes } from '../../modules/remote/routes.js';
import { executionRoutes } from '../../modules/executions/routes.js';
import { settingsRoutes } from '../../modules/providers/routes.js';
import { modelRoutes } from '../../modules/models/routes.js';
import { mcpServerRoutes, stepApprovalRoutes } from '../../modules/tools/routes.js';
import { docsPage } from './docs.js';
import { openAIErrorShape } from '../openai/errors.js';
import { openaiRoutes } from '../openai/routes.js';
import { mcpHandler } from '../mcp/http.js';

/** Paths reachable without a key: the API's own description, which holds no user data. */
const PUBLIC_PATHS = new Set(['/api/openapi.json', '/api/docs']);

export interface AppOptions {
  /** Extra ways to authenticate (browser-mode session cookie). */
  resolvers?: PrincipalResolver[];
}

export function createApp(p: TransportDeps, opts: AppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>();
  const allowedHosts = () => [...p.config.allowedHosts, ...p.services.settings.get<string[]>('localhost.allowed_hosts', [])];
  const allowedOrigins = () => [...p.config.allowedOrigins, ...p.services.settings.get<string[]>('localhost.allowed_origins', [])];

  app.onError((err, c) => errorResponse(c, err, p.log));
  // OpenAI clients read errors as {"error": {...}}: rewrite the platform's envelope there, and only there.
  for (const prefix of ['/v1/*', '/api/agents/:id/openai/*']) app.use(prefix, openAIErrorShape());
  app.use('*', hostGuard(allowedHosts));
  app.use('*', cors(allowedOrigins));
  const auth = bearerAuth(p.services.keys, opts.resolvers);
  for (const prefix of ['/api/*', '/v1/*', '/mcp', '/mcp/*']) {
    app.use(prefix, async (c, next) => (PUBLIC_PATHS.has(c.req.path) ? next() : auth(c, next)));
  }
  // After auth: an unauthenticated client gets its 401 without the server reading its body.
  app.use('*', jsonBody(() => p.config.maxJsonBytes));

  // One router per resource, all under /api.
  const apiRouters = [agentRoutes, memoryRoutes, webhookRoutes, webhookDeliveryRoutes, keyRoutes, exportRoutes, fileRoutes, appSettingsRoutes, remoteRoutes, executionRoutes, settingsRoutes, modelRoutes, mcpServerRoutes, stepApprovalRoutes];
  for (const routes of apiRouters) app.route('/api', routes(p.services));
  app.route('/', openaiRoutes(p));
  app.all('/mcp', mcpHandler(p));

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer' });
  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Agent Desk: Agent Platform API',
      version: '1.0.0',
      description: 'The Agent Platform HTTP API, served locally by Agent Desk. Every /api route needs `Authorization: Bearer <key>`.',
    },
  });
  app.get('/api/docs', (c) => c.html(docsPage()));

  app.notFound((c) => methodNotAllowed(app, c.req.method, c.req.path) ?? c.json({ message: 'Not found.' }, 404));
  return app;
}

/** 405 when the path exists under another method (Hono alone answers 404). */
function methodNotAllowed(app: Hono<any>, method: string, path: string): Response | null {
  const allowed = new Set<string>();
  for (const r of app.routes) {
    if (r.method === 'ALL' || r.method === method) continue;
    if (!r.path.includes(':') && !r.path.includes('*') && r.path !== path) continue;
    const re = new RegExp(`^${r.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\/:[^/]+/g, '/[^/]+').replace(/\*/g, '.*')}$`);
    if (re.test(path)) allowed.add(r.method);
  }
  if (!allowed.size) return null;
  const list = [...allowed].sort().join(', ');
  return new Response(JSON.stringify({ message: `The ${method} method is not supported for this route. Supported methods: ${list}.` }), {
    status: 405,
    headers: { 'content-type': 'application/json', Allow: list },
  });
}
