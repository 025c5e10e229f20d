import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServiceContext } from '../../kernel/context.js';
import type { SettingsService } from '../../kernel/settings.js';
import type { SecretBox } from '../../kernel/secrets.js';
import { APP_LOCALES, LOCALHOST_DEFAULTS, type AppLocale, type LocalhostSettingsUpdate } from '../../contract/app-settings.js';
import { LOCALHOST_SETTINGS_EVENT } from '../../kernel/events.js';
import { ggufEngineInfo, isGpuChoice, setGpuSetting, type GpuChoice } from '../../engine/providers/gguf-engine.js';

declare module '../../kernel/settings.js' {
  interface SettingsMap {
    'localhost.enabled': boolean;
    'localhost.port': number;
    'localhost.allowed_hosts': string[];
    'localhost.allowed_origins': string[];
    'engine.gpu': string | null;
    'app.locale': string | null;
  }
}

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
export function readLocalhostSettings(s: SettingsService, config: ServiceContext['config']) {
  return {
    enabled: s.get('localhost.enabled', LOCALHOST_DEFAULTS.enabled),
    port: s.get('localhost.port', LOCALHOST_DEFAULTS.port),
    allowed_hosts: s.get('localhost.allowed_hosts', []),
    allowed_origins: s.get('localhost.allowed_origins', []),
    from_env: { allowed_hosts: config.allowedHosts, allowed_origins: config.allowedOrigins },
  };
}

/** What the app's Settings screen reads and changes (ext): facts about the app, the localhost API, the GPU, the preferences. */
export class AppSettingsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly settings: SettingsService,
    private readonly secrets: SecretBox,
  ) {
    // The local engine's GPU choice is process-wide; the stored setting applies from start-up.
    const gpu = settings.get('engine.gpu', 'auto');
    setGpuSetting(isGpuChoice(gpu) ? gpu : 'auto');
  }

  info() {
    return {
      version: appVersion(),
      data_dir: this.ctx.config.dataDir,
      secrets_encrypted: this.secrets.encrypted,
      platform: process.platform,
      electron: process.versions.electron ?? null,
      schema_version: this.ctx.db.pragma('user_version', { simple: true }) as number,
      gpu: ggufEngineInfo(),
      max_upload_bytes: this.ctx.config.maxUploadBytes,
    };
  }

  /** The GPU for local GGUF models: applies when the engine first starts, else on the next start of the app. */
  updateGpu(gpu: GpuChoice) {
    this.settings.set('engine.gpu', gpu);
    setGpuSetting(gpu);
    return ggufEngineInfo();
  }

  /** The interface language chosen in Settings; null (never chosen) follows the system's. */
  preferences(): { locale: AppLocale | null } {
    const locale = this.settings.get('app.locale', null);
    return { locale: APP_LOCALES.find((l) => l === locale) ?? null };
  }

  updatePreferences(body: { locale?: AppLocale | null }) {
    if (body.locale !== undefined) this.settings.set('app.locale', body.locale);
    return this.preferences();
  }

  localhost() {
    return readLocalhostSettings(this.settings, this.ctx.config);
  }

  /** Omitted fields stay as they are; listeners (the desktop shell) re-listen on the event. */
  updateLocalhost(body: LocalhostSettingsUpdate) {
    const s = this.settings;
    this.ctx.db.transaction(() => {
      if (body.enabled !== undefined) s.set('localhost.enabled', body.enabled);
      if (body.port !== undefined) s.set('localhost.port', body.port);
      if (body.allowed_hosts) s.set('localhost.allowed_hosts', body.allowed_hosts);
      if (body.allowed_origins) s.set('localhost.allowed_origins', body.allowed_origins);
    })();
    const now = this.localhost();
    this.ctx.events.emit(LOCALHOST_SETTINGS_EVENT, now);
    return now;
  }
}
