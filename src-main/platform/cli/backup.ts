import fs from 'node:fs';
import path from 'node:path';
import { PlatformEvents } from '../kernel/events.js';
import { parseArgs } from 'node:util';
import { resolveConfig } from '../kernel/config.js';
import { DATABASE_FILE, connect, openDatabase } from '../db/connection.js';
import { latestVersion, migrate, DatabaseFromTheFutureError } from '../db/migrate.js';
import { backupDataDir, snapshotBeforeMigrate, stamp } from '../modules/archive/backup.js';
import { writeExportFile } from '../modules/archive/service.js';
import { importArchive } from '../modules/archive/import.js';
import { holdsAgents } from '../modules/archive/store.js';
import { BadArchiveError } from '../modules/archive/tar.js';
import { UsersService } from '../modules/access/users.js';
import { DEFAULT_USER_ID, DEFAULT_WORKSPACE_ID } from '../kernel/context.js';
import { SettingsService } from '../kernel/settings.js';
import { createLogger } from '../kernel/log.js';
import { fail, runCommand } from './exit.js';

const USAGE = `Usage:
  npm run backup -- [--data-dir DIR] [--out FILE]
      A consistent copy of the database plus every stored file, as one .tar
      (default: <data dir>/backups/agent-desk-<time>.tar). Safe while Agent Desk runs.
  npm run export -- [--data-dir DIR] [--out FILE] [--workspace ID] [--include-secrets]
      One workspace (agents, files with their bytes, memories, collections, webhooks) as one .tar.
      Webhook signing secrets are left out unless --include-secrets is given.
  npm run import -- FILE [--data-dir DIR] [--workspace ID]
      Adds an export to a data dir (new or existing), all or nothing.

The data dir defaults to AGENT_DESK_DATA_DIR, else the app's own folder.`;

function workspaceOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_WORKSPACE_ID;
  if (!/^[1-9]\d{0,15}$/.test(raw)) fail(`Invalid workspace id: ${raw}`);
  return Number(raw);
}

function backupCommand(dataDir: string, out: string | undefined): void {
  const r = backupDataDir({ dataDir, out });
  process.stdout.write(`Backed up ${dataDir} (schema v${r.schemaVersion}, ${r.files} files, ${r.bytes} bytes) to:\n${r.out}\n`);
  if (r.missing.length) process.stdout.write(`Note: ${r.missing.length} file(s) were deleted while the backup ran and are not in it: ${r.missing.join(', ')}\n`);
}

async function exportCommand(dataDir: string, out: string | undefined, workspace: string | undefined, includeSecrets: boolean): Promise<void> {
  const file = path.join(dataDir, DATABASE_FILE);
  if (!fs.existsSync(file)) fail(`No Agent Desk database in ${dataDir}.`, 1);
  // Read-only: exporting never changes (or migrates) the data dir.
  const db = connect(file, { readonly: true });
  try {
    const target = path.resolve(out ?? `agent-desk-export-${stamp()}.tar`);
    const r = await writeExportFile(db, dataDir, { userId: DEFAULT_USER_ID, workspaceId: workspaceOf(workspace) }, target, { includeSecrets });
    process.stdout.write(`Exported workspace ${workspaceOf(workspace)} of ${dataDir} (${r.bytes} bytes) to:\n${r.out}\n`);
  } finally {
    db.close();
  }
}

function importCommand(dataDir: string, archive: string | undefined, workspace: string | undefined): void {
  if (!archive) fail(`Usage: npm run import -- FILE [--data-dir DIR]\n\n${USAGE}`);
  if (!fs.existsSync(archive)) fail(`No such file: ${archive}`, 1);
  const config = resolveConfig({ dataDir });
  const log = createLogger(process.env.AGENT_DESK_LOG_LEVEL ?? 'warn');
  const db = openDatabase(config.dataDir);
  try {
    migrate(db, { beforeMigrate: () => snapshotBeforeMigrate(db, config.dataDir, latestVersion()) });
    const ctx = { db, config, log, events: new PlatformEvents() };
    new UsersService(ctx).ensureDefaults();
    const fresh = !holdsAgents(db);
    const r = importArchive(db, config.dataDir, { userId: DEFAULT_USER_ID, workspaceId: workspaceOf(workspace) }, path.resolve(archive), { name: path.basename(archive) });
    // A restore into a new data dir already holds the catalog's agents: do not seed them twice.
    if (fresh) new SettingsService(ctx).set('seed.agents', true);
    const summary = Object.entries(r.imported)
      .map(([k, v]) => `${v} ${k.replace(/_/g, ' ')}`)
      .join(', ');
    process.stdout.write(`Imported into ${config.dataDir}: ${summary}.\n`);
    for (const note of r.notes) process.stdout.write(`Note: ${note}\n`);
  } finally {
    db.close();
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'data-dir': { type: 'string' }, out: { type: 'string' }, workspace: { type: 'string' }, 'include-secrets': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) fail(USAGE, values.help ? 0 : 2);
  const dataDir = resolveConfig({ dataDir: values['data-dir'] }).dataDir;
  if (command === 'backup') return backupCommand(dataDir, values.out);
  if (command === 'export') return exportCommand(dataDir, values.out, values.workspace, values['include-secrets'] === true);
  if (command === 'import') return importCommand(dataDir, rest[0], values.workspace);
  fail(USAGE);
}

runCommand(main, USAGE, [DatabaseFromTheFutureError, BadArchiveError]);
