import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { RememberingRouter } from './remembering-router.js';
import type { AppEnv } from './env.js';
import type { TransportDeps } from '../deps.js';
import { hostGuard } from './middleware/host-guard.js';
import { cors } from './middleware/cors.js';
import { bearerAuth, type PrincipalResolver } from './middleware/auth.js';
import { jsonBody } from './middleware/json-body.js';
import { needsKey, requestGate } from './middleware/gate.js';
import { apiDialect, errorResponse, MethodNotAllowedError, RouteNotFoundError } from './errors.js';
import { agentRoutes } from '../../modules/agents/routes.js';
import { memoryRoutes } from '../../modules/memories/routes.js';
import { webhookRoutes } from '../../modules/webhooks/routes.js';
import { webhookDeliveryRoutes } from '../../modules/webhooks/deliveries-routes.js';
import { keyRoutes } from '../../modules/access/routes.js';
import { exportRoutes } from '../../modules/archive/routes.js';
import { fileRoutes } from '../../modules/files/routes.js';
import { appSettingsRoutes } from '../../modules/app-settings/routes.js';
import { usageRoutes } from '../../modules/usage/routes.js';
import { remoteRoutes } from '../../modules/remote/routes.js';
import { executionRoutes } from '../../modules/executions/routes.js';
import { settingsRoutes } from '../../modules/providers/routes.js';
import { modelRoutes } from '../../modules/models/routes.js';
import { retrievalRoutes } from '../../modules/retrieval/routes.js';
import { ocrSettingsRoutes } from '../../modules/files/ocr-routes.js';
import { mcpServerRoutes, stepApprovalRoutes } from '../../modules/tools/routes.js';
import { docsPage } from './docs.js';
import { apiSegmentsOf, hostedGetPath } from './hosted-paths.js';
import { openAIDialect } from '../openai/errors.js';
import { openaiRoutes } from '../openai/routes.js';
import { transcriptionRoutes, voiceRoutes } from '../../modules/audio/routes.js';
import { anthropicDialect } from '../anthropic/errors.js';
import { dialectOf } from './operations.js';
import { mcpHandler } from '../mcp/http.js';
import { scheduleRoutes } from '../../modules/schedules/routes.js';
import type { Steps } from '../../kernel/steps.js';


const DIALECTS = { api: apiDialect, openai: openAIDialect, anthropic: anthropicDialect } as const;

export interface AppOptions {
  /** Extra ways to authenticate (browser-mode session cookie). */
  resolvers?: PrincipalResolver[];
}

export type App = OpenAPIHono<AppEnv>;

/** The HTTP app, built in steps: one per router (building its routes and their schemas is most of the cost). */
export function* appSteps(p: TransportDeps, opts: AppOptions = {}): Steps<App> {
  // The hosted platform's newer base URL has no /api prefix (CONTRACT.md "Compatibility"): such
  // requests are routed to the API by path; the set of API paths is read once the routes exist.
  let apiSegments: Set<string> | null = null;
  // The trie router adds each route as it is registered; Hono's default compiles one matcher for
  // every route inside the first request (a long turn of the loop), and cannot take these routes
  // (it falls back to the trie). Its answers are remembered per method and path.
  const app: OpenAPIHono<AppEnv> = new OpenAPIHono<AppEnv>({ router: new RememberingRouter(new TrieRouter()), getPath: hostedGetPath(() => (apiSegments ??= apiSegmentsOf(app.routes))) });
  const allowedHosts = () => [...p.config.allowedHosts, ...p.services.settings.get('localhost.allowed_hosts', [])];
  const allowedOrigins = () => [...p.config.allowedOrigins, ...p.services.settings.get('localhost.allowed_origins', [])];

  // Each error answers in the dialect its client reads: the matched operation's (or its door's, for a
  // path under a door that no operation serves), else the /api envelope.
  const dialectFor = (c: Context) => DIALECTS[dialectOf(c) ?? 'api'];
  const onError = (err: Error, c: Context<AppEnv>) => errorResponse(c, err, p.log, dialectFor(c));
  app.onError(onError);
  // The key is checked before the body is read: an unauthenticated client gets its 401 without the server reading its body.
  app.use(
    '*',
    requestGate({
      host: hostGuard(allowedHosts),
      cors: cors(allowedOrigins),
      needsAuth: needsKey,
      authenticate: bearerAuth(p.services.keys, opts.resolvers),
      body: jsonBody(() => p.config.maxJsonBytes),
      onError,
    }),
  );

  // One router per resource, all under /api.
  const apiRouters = [agentRoutes, memoryRoutes, webhookRoutes, webhookDeliveryRoutes, keyRoutes, exportRoutes, fileRoutes, appSettingsRoutes, usageRoutes, remoteRoutes, executionRoutes, settingsRoutes, modelRoutes, mcpServerRoutes, stepApprovalRoutes, retrievalRoutes, ocrSettingsRoutes, scheduleRoutes, voiceRoutes];
  for (const routes of apiRouters) {
    app.route('/api', routes(p.services));
    yield;
  }
  // Before OpenAI's door: its catch-all under /v1 would answer /v1/audio/transcriptions with a 404.
  app.route('/v1', transcriptionRoutes(p.services));
  app.route('/', openaiRoutes(p));
  yield;
  app.all('/mcp', mcpHandler(p, app));

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer' });
  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    // Every documented operation needs the key; the document and /api/docs themselves are not operations in it.
    security: [{ bearerAuth: [] }],
    info: {
      title: 'Agent Desk: Agent Platform API',
      version: '1.0.0',
      description: 'The Agent Platform HTTP API, served locally by Agent Desk. Every /api route needs `Authorization: Bearer <key>`.',
    },
  });
  app.get('/api/docs', (c) => c.html(docsPage()));

  app.notFound((c) => errorResponse(c, methodNotAllowed(app, c.req.method, c.req.path) ?? new RouteNotFoundError(), p.log, dialectFor(c)));
  return app;
}

/** 405 when the path exists under another method (Hono alone answers 404). */
function methodNotAllowed(app: Hono<AppEnv>, method: string, path: string): MethodNotAllowedError | null {
  const allowed = new Set<string>();
  for (const r of app.routes) {
    if (r.method === 'ALL' || r.method === method) continue;
    if (!r.path.includes(':') && !r.path.includes('*') && r.path !== path) continue;
    const re = new RegExp(`^${r.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\/:[^/]+/g, '/[^/]+').replace(/\*/g, '.*')}$`);
    if (re.test(path)) allowed.add(r.method);
  }
  return allowed.size ? new MethodNotAllowedError(method, [...allowed].sort().join(', ')) : null;
}
