import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '../../platform.js';
import { createRouter, errorResponses, ok, jsonBodyOf, bearer } from '../../transports/http/router.js';
import { AppInfo, LocalhostSettings, LocalhostSettingsUpdate, LOCALHOST_DEFAULTS, Usage, UsageQuery } from '../../contract/app-settings.js';
import { UsageService } from './usage.js';

/** Event emitted after the localhost settings change, so the desktop shell can re-listen. */
export const LOCALHOST_SETTINGS_EVENT = 'settings.localhost';

let version: string | undefined;
/** The app's version from its package.json, found upwards from here (source, bundle and asar alike). */
export function appVersion(): string {
  if (version) return version;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'agent-desk' && pkg.version) return (version = pkg.version);
    } catch {}
    dir = path.dirname(dir);
  }
  return (version = '0.0.0');
}

/** The localhost API settings as stored (keys read by the host guard and CORS too). */
export function readLocalhostSettings(p: Platform) {
  const s = p.services.settings;
  return {
    enabled: s.get<boolean>('localhost.enabled', LOCALHOST_DEFAULTS.enabled),
    port: s.get<number>('localhost.port', LOCALHOST_DEFAULTS.port),
    allowed_hosts: s.get<string[]>('localhost.allowed_hosts', []),
    allowed_origins: s.get<string[]>('localhost.allowed_origins', []),
    from_env: { allowed_hosts: p.config.allowedHosts, allowed_origins: p.config.allowedOrigins },
  };
}

/** ext: what the app's Settings and Usage screens need. */
export function appSettingsRoutes(p: Platform) {
  const r = createRouter();
  const usage = new UsageService(p.db);
  const tags = ['App'];

  r.openapi(
    createRoute({ method: 'get', path: '/app', tags, security: bearer, summary: 'About this Agent Desk (ext)', responses: { ...ok(AppInfo), ...errorResponses } }),
    (c) =>
      c.json(
        {
          version: appVersion(),
          data_dir: p.config.dataDir,
          secrets_encrypted: p.secrets.encrypted,
          platform: process.platform,
          electron: process.versions.electron ?? null,
          schema_version: p.db.pragma('user_version', { simple: true }) as number,
        },
        200,
      ),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/settings/localhost', tags, security: bearer, summary: 'Localhost API settings (ext)', responses: { ...ok(LocalhostSettings), ...errorResponses } }),
    (c) => c.json(readLocalhostSettings(p), 200),
  );

  r.openapi(
    createRoute({
      method: 'put',
      path: '/settings/localhost',
      tags,
      security: bearer,
      summary: 'Change localhost API settings (ext); omitted fields stay as they are',
      description: 'The desktop app applies `enabled` and `port` at once (re-listening); `npm run serve` takes its port from --port / AGENT_DESK_PORT.',
      request: jsonBodyOf(LocalhostSettingsUpdate),
      responses: { ...ok(LocalhostSettings), ...errorResponses },
    }),
    (c) => {
      const body = c.req.valid('json');
      const s = p.services.settings;
      p.db.transaction(() => {
        if (body.enabled !== undefined) s.set('localhost.enabled', body.enabled);
        if (body.port !== undefined) s.set('localhost.port', body.port);
        if (body.allowed_hosts) s.set('localhost.allowed_hosts', body.allowed_hosts);
        if (body.allowed_origins) s.set('localhost.allowed_origins', body.allowed_origins);
      })();
      const now = readLocalhostSettings(p);
      p.events.emit(LOCALHOST_SETTINGS_EVENT, now);
      return c.json(now, 200);
    },
  );

  r.openapi(
    createRoute({ method: 'get', path: '/usage', tags, security: bearer, summary: 'Credits per day (ext)', request: { query: UsageQuery }, responses: { ...ok(Usage), ...errorResponses } }),
    (c) => c.json(usage.perDay(c.get('principal').userId, c.req.valid('query').days), 200),
  );
  return r;
}
