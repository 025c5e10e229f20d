import os from 'node:os';
import path from 'node:path';

/** Everything the platform needs to know about where it runs, resolved once at start-up. */
export interface PlatformConfig {
  dataDir: string;
  /** A key made valid for the default user without being stored (scripts, CI, tests). */
  envApiKey?: string;
  /** Extra Host names accepted besides loopback ones (DNS-rebinding guard). */
  allowedHosts: string[];
  /** Origins that receive CORS headers. */
  allowedOrigins: string[];
  /** Largest JSON body accepted, in bytes. */
  maxJsonBytes: number;
  /** Largest upload accepted, in bytes. */
  maxUploadBytes: number;
  /** Raw environment, for features that seed their settings from it. */
  env: Record<string, string | undefined>;
}

/** The per-user app-data folder the desktop app uses too (Electron's `userData` for "Agent Desk"). */
export function defaultDataDir(env: Record<string, string | undefined> = process.env): string {
  const home = os.homedir();
  if (process.platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Agent Desk');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Agent Desk');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Agent Desk');
}

function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

export function resolveConfig(
  overrides: Partial<PlatformConfig> = {},
  env: Record<string, string | undefined> = process.env,
): PlatformConfig {
  const mb = (v: string | undefined, dflt: number) => (v && Number(v) > 0 ? Math.floor(Number(v) * 1024 * 1024) : dflt);
  return {
    dataDir: path.resolve(overrides.dataDir ?? env.AGENT_DESK_DATA_DIR ?? defaultDataDir(env)),
    envApiKey: overrides.envApiKey ?? (env.AGENT_DESK_API_KEY || undefined),
    allowedHosts: overrides.allowedHosts ?? list(env.AGENT_DESK_ALLOWED_HOSTS),
    allowedOrigins: overrides.allowedOrigins ?? list(env.AGENT_DESK_ALLOWED_ORIGINS),
    maxJsonBytes: overrides.maxJsonBytes ?? mb(env.AGENT_DESK_MAX_JSON_MB, 4 * 1024 * 1024),
    maxUploadBytes: overrides.maxUploadBytes ?? mb(env.AGENT_DESK_MAX_UPLOAD_MB, 200 * 1024 * 1024),
    env: overrides.env ?? env,
  };
}
