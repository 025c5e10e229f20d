import { z } from 'zod';
import { operations } from './operation.js';

/** ext: the app's own settings and facts for its Settings screen. */

export const LOCALHOST_DEFAULTS = { enabled: true, port: 8787 } as const;

/** A Host header value the user allows besides loopback: a DNS name or IPv4, optionally with :port, or [IPv6]. */
const hostName = z
  .string()
  .trim()
  .toLowerCase()
  .max(260)
  .regex(/^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?)(:\d{1,5})?$/, {
    message: 'Each allowed host must be a host name like my-pc.local (optionally with :port), without scheme or path.',
  });

/** An Origin as browsers send it (`scheme://host[:port]`, nothing after), or `*` for any. */
const origin = z
  .string()
  .trim()
  .max(300)
  .transform((s, ctx) => {
    if (s === '*') return s;
    try {
      const u = new URL(s);
      const bare = u.pathname === '/' && !u.search && !u.hash && !u.username && !u.password;
      if ((u.protocol === 'http:' || u.protocol === 'https:') && bare) return u.origin;
    } catch {}
    ctx.addIssue({ code: 'custom', message: 'Each allowed origin must look like https://example.com or http://localhost:3000 (scheme, host and port only), or be *.' });
    return z.NEVER;
  });

const unique = <T extends z.ZodType<string>>(item: T) =>
  z
    .array(item)
    .max(50)
    .transform((list) => [...new Set(list)]);

export const LocalhostSettings = z
  .object({
    enabled: z.boolean(),
    port: z.number().int(),
    allowed_hosts: z.array(z.string()),
    allowed_origins: z.array(z.string()),
    /** Set by environment (AGENT_DESK_ALLOWED_HOSTS / _ORIGINS): effective too, but not editable here. */
    from_env: z.object({ allowed_hosts: z.array(z.string()), allowed_origins: z.array(z.string()) }),
  })
  .meta({ id: 'LocalhostSettings' });

export const LocalhostSettingsUpdate = z
  .object({
    enabled: z.boolean().optional(),
    port: z.number().int().min(1).max(65535).optional(),
    allowed_hosts: unique(hostName).optional(),
    allowed_origins: unique(origin).optional(),
  })
  .strict();
export type LocalhostSettingsUpdate = z.infer<typeof LocalhostSettingsUpdate>;

export const GPU_CHOICE = z.enum(['auto', 'off', 'cuda', 'vulkan', 'metal']);

/** The local GGUF engine's GPU: what is asked for and what runs (backend null until a local model is first used). */
export const GpuInfo = z
  .object({
    gpu: GPU_CHOICE,
    from_env: z.boolean(),
    backend: z.enum(['cuda', 'vulkan', 'metal', 'cpu']).nullable(),
    note: z.string().nullable(),
    restart_required: z.boolean(),
  })
  .meta({ id: 'GpuInfo' });

export type GpuInfo = z.infer<typeof GpuInfo>;
export const GpuSettingsUpdate = z.object({ gpu: GPU_CHOICE }).strict();

export const AppInfo = z
  .object({
    version: z.string(),
    data_dir: z.string(),
    secrets_encrypted: z.boolean(),
    platform: z.string(),
    /** Electron's version in the desktop app; null when served by plain Node (browser mode). */
    electron: z.string().nullable(),
    schema_version: z.number().int(),
    gpu: GpuInfo,
    /** the largest file an upload may be (AGENT_DESK_MAX_UPLOAD_MB), so the app can say so before sending one */
    max_upload_bytes: z.number().int(),
  })
  .meta({ id: 'AppInfo' });

/** The languages the app is written in (ext `locale`); null follows the system's language. */
export const APP_LOCALES = ['en', 'pt-BR'] as const;
export const AppLocale = z.enum(APP_LOCALES);
export type AppLocale = z.infer<typeof AppLocale>;

/** The person's app preferences (ext): kept by the platform so they survive restarts and reinstalls of the window. */
export const AppPreferences = z.object({ locale: AppLocale.nullable() }).meta({ id: 'AppPreferences' });
export type AppPreferences = z.infer<typeof AppPreferences>;
export const AppPreferencesUpdate = z.object({ locale: AppLocale.nullable().optional() }).strict();

const tags = ['App'] as const;

/** ext: what the app's Settings screen needs (modules/app-settings/routes.ts handles them). */
export const appOperations = operations({
  getApp: { method: 'get', path: '/app', tags, summary: 'About this Agent Desk (ext)', response: AppInfo },
  getLocalhostSettings: { method: 'get', path: '/settings/localhost', tags, summary: 'Localhost API settings (ext)', response: LocalhostSettings },
  updateLocalhostSettings: {
    method: 'put',
    path: '/settings/localhost',
    tags,
    summary: 'Change localhost API settings (ext); omitted fields stay as they are',
    description: 'The desktop app applies `enabled` and `port` at once (re-listening); `npm run serve` takes its port from --port / AGENT_DESK_PORT.',
    body: LocalhostSettingsUpdate,
    response: LocalhostSettings,
  },
  updateGpuSettings: {
    method: 'put',
    path: '/settings/gpu',
    tags,
    summary: 'GPU for local GGUF models (ext): auto, off, cuda, vulkan or metal',
    description: 'Applies when the local engine first starts, else on the next start of the app (`restart_required`). AGENT_DESK_GPU, when set, wins (`from_env`).',
    body: GpuSettingsUpdate,
    response: GpuInfo,
  },
  getAppPreferences: { method: 'get', path: '/settings/app', tags, summary: "The app's preferences (ext): the interface language (`locale`, null follows the system)", response: AppPreferences },
  updateAppPreferences: {
    method: 'put',
    path: '/settings/app',
    tags,
    summary: "Change the app's preferences (ext); omitted fields stay as they are",
    body: AppPreferencesUpdate,
    response: AppPreferences,
  },
});
