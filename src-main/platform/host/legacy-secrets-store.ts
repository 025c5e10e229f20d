import fs from 'node:fs';
import path from 'node:path';
import { DATABASE_FILE, connect, type DB } from '../db/connection.js';
import { legacySealedIn } from '../kernel/secrets.js';

/**
 * Secrets an older Agent Desk sealed directly with safeStorage (`safe:...`), wherever sealed
 * values are stored (settings and MCP servers' env and headers), read before the platform starts
 * so the main process can open them once with the keychain. A database not there yet, or one
 * the platform will refuse, holds none to read.
 */
export function findLegacySecrets(dataDir: string): string[] {
  const file = path.join(dataDir, DATABASE_FILE);
  if (!fs.existsSync(file)) return [];
  let db: DB | null = null;
  try {
    db = connect(file, { readonly: true });
    const texts: (string | null)[] = [];
    const tables = new Set(db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r.name));
    if (tables.has('settings')) for (const r of db.prepare<[], { value: string }>("SELECT value FROM settings WHERE value LIKE '%safe:%'").all()) texts.push(r.value);
    if (tables.has('mcp_servers')) for (const r of db.prepare<[], { env: string | null; headers: string | null }>("SELECT env, headers FROM mcp_servers WHERE env LIKE 'safe:%' OR headers LIKE 'safe:%'").all()) texts.push(r.env, r.headers);
    return legacySealedIn(texts);
  } catch {
    return [];
  } finally {
    db?.close();
  }
}
