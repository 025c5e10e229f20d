import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type DB } from './db/connection.js';
import { acquireDataDirLock } from './db/data-dir-lock.js';
import { startCheckpointer, START_AT_PAGES } from './db/checkpointer.js';
import { migrateSteps, latestVersion } from './db/migrate.js';
import { snapshotBeforeMigrate } from './modules/archive/backup.js';
import { resolveConfig, type PlatformConfig } from './kernel/config.js';
import { createLogger, type Logger } from './kernel/log.js';
import type { ServiceContext } from './kernel/context.js';
import { UsersService } from './modules/access/users.js';
import { DEFAULT_USER_ID, DEFAULT_WORKSPACE_ID } from './kernel/context.js';
import { KeysService } from './modules/access/keys.js';
import { SettingsService } from './kernel/settings.js';
import { TemplatesService, type CatalogTemplate } from './modules/agents/templates.js';
import { AgentsService } from './modules/agents/service.js';
import { withCatalogDefaults } from './modules/agents/catalog-defaults.js';
import { CollectionsService } from './modules/memories/collections.js';
import { MemoriesService } from './modules/memories/service.js';
import { WebhooksService } from './modules/webhooks/service.js';
import { FilesService } from './modules/files/service.js';
import { OcrSettingsService } from './modules/files/ocr-settings.js';
import { WebhookDeliveryService } from './modules/webhooks/delivery.js';
import { RemoteService } from './modules/remote/service.js';
import { ProvidersService } from './modules/providers/service.js';
import { NOT_FOR_CHAT } from './modules/models/curated.js';
import { ModelsService } from './modules/models/service.js';
import { DownloadsService } from './modules/models/downloads.js';
import { ExecutionsService } from './modules/executions/service.js';
import { remoteRunner } from './modules/remote/runner.js';
import { JobQueue } from './jobs/queue.js';
import { appSteps, type App, type AppOptions } from './transports/http/app.js';
import type { AgentCreate } from './contract/agents.js';
import { plainBox, type SecretBox } from './kernel/secrets.js';
import { lifecycleOf, type Lifecycle, type ShutdownHook } from './kernel/lifecycle.js';
import { ToolsService } from './modules/tools/service.js';
import { AppSettingsService } from './modules/app-settings/service.js';
import { UsageService } from './modules/usage/service.js';
import { SchedulesService } from './modules/schedules/service.js';
import { systemClock, type Clock } from './kernel/time.js';
import { PlatformEvents } from './kernel/events.js';
import { ArchiveService } from './modules/archive/archive.js';
import { RetrievalService } from './modules/retrieval/service.js';
import { AudioService } from './modules/audio/service.js';
import { runSteps, runStepsYielding, type Steps } from './kernel/steps.js';

/** How long a close may take in all (AGENT_DESK_SHUTDOWN_GRACE_S, default 20 s: running executions get 10 s of it). */
function shutdownGraceMs(env: Record<string, string | undefined>): number {
  const s = Number(env.AGENT_DESK_SHUTDOWN_GRACE_S);
  return (Number.isFinite(s) && s > 0 ? s : 20) * 1000;
}

declare module './kernel/settings.js' {
  interface SettingsMap {
    'seed.agents': boolean;
    'seed.defaults': boolean;
  }
}


export interface PlatformOptions extends Partial<PlatformConfig> {
  /** Where the seed catalog lives (the packaged app passes its own resources path). */
  resourcesDir?: string;
  logger?: Logger;
  app?: AppOptions;
  /** How secrets (provider keys, remote key) are sealed at rest; the desktop app passes safeStorage. */
  secrets?: SecretBox;
  /** The wall clock of time-driven work (schedules); tests inject one. */
  clock?: Clock;
}

export const defaultResourcesDir = () => path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../resources');

/** The modules, each given what it uses by its constructor, in dependency order; pausable between groups. */
function* buildServices(ctx: ServiceContext, secrets: SecretBox, jobs: JobQueue, lifecycle: Lifecycle, clock: Clock) {
  const users = new UsersService(ctx);
  const keys = new KeysService(ctx);
  const settings = new SettingsService(ctx);
  const templates = new TemplatesService(ctx);
  const agents = new AgentsService(ctx, templates);
  yield;
  const collections = new CollectionsService(ctx);
  const memories = new MemoriesService(ctx, collections);
  const providers = new ProvidersService(ctx, settings, secrets, { notForChat: (file) => NOT_FOR_CHAT.has(file.toLowerCase()) });
  yield;
  const retrieval = new RetrievalService(ctx, settings, secrets, memories, lifecycle, { ggufFolders: () => providers.ggufFolders() });
  yield;
  const webhooks = new WebhooksService(ctx, agents);
  const files = new FilesService(ctx, agents, jobs, lifecycle);
  files.vectorState = (ids) => retrieval.vectorState(ids);
  const ocr = new OcrSettingsService(settings, ctx.config.dataDir);
  const webhookDeliveries = new WebhookDeliveryService(ctx, webhooks, jobs);
  yield;
  const remote = new RemoteService(ctx, settings, agents, secrets);
  const tools = new ToolsService(ctx, { settings, secrets, agents, lifecycle });
  yield;
  const executions = new ExecutionsService(ctx, { agents, memories, providers, files, remoteRunner: remoteRunner(remote), tools, retrieval: retrieval.forExecutions() });
  yield;
  const appSettings = new AppSettingsService(ctx, settings, secrets);
  const usage = new UsageService(ctx.db);
  const archive = new ArchiveService(ctx);
  const models = new ModelsService(ctx, providers, agents);
  const modelDownloads = new DownloadsService(ctx, { folder: () => providers.downloadsFolder(), changed: () => void providers.listings({ fresh: true }) }, lifecycle);
  const schedules = new SchedulesService(ctx, { agents, executions }, jobs, lifecycle, clock);
  const audio = new AudioService(ctx, settings, providers);
  return { users, keys, settings, templates, agents, collections, memories, retrieval, webhooks, webhookDeliveries, remote, files, ocr, providers, executions, appSettings, usage, archive, models, modelDownloads, tools, schedules, audio };
}

export type Services = ReturnType<typeof buildServices> extends Steps<infer S> ? S : never;

export interface Platform {
  config: PlatformConfig;
  db: DB;
  log: Logger;
  events: PlatformEvents;
  jobs: JobQueue;
  secrets: SecretBox;
  services: Services;
  app: App;
  /** Whether this process owns the data dir's background work (see db/data-dir-lock.ts). */
  primary: boolean;
  /** Work to finish before the database closes (e.g. let running executions end or record them). */
  shutdownHooks: ShutdownHook[];
  /** Runs the shutdown hooks, stops background work and closes the database. */
  close(): Promise<void>;
  /**
   * Drops the platform with no shutdown work at all, as the death of its process would (tests
   * of crash recovery): timers stop, the database closes, the data dir lock is freed.
   */
  abandon(): void;
}

/** SQL helpers the services rely on. */
function registerFunctions(db: DB): void {
  // Unicode-aware lower-casing for case-insensitive search (SQLite's lower() is ASCII-only).
  db.function('casefold', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : s));
}

interface Catalog {
  version: number;
  templates: CatalogTemplate[];
  agents: (AgentCreate & { title: string })[];
}

function loadCatalog(dir: string): Catalog {
  return JSON.parse(fs.readFileSync(path.join(dir, 'catalog.json'), 'utf8')) as Catalog;
}

/** Templates refresh every start; agents are seeded once, on the first run, so deleting one sticks. */
function seed(services: Services, resourcesDir: string): void {
  const catalog = loadCatalog(resourcesDir);
  services.templates.upsertCatalog(catalog.templates);
  if (!services.settings.get('seed.agents', false)) {
    services.agents.seed(DEFAULT_USER_ID, DEFAULT_WORKSPACE_ID, catalog.agents);
    services.settings.set('seed.agents', true);
  }
  // Once per data dir: defaults the catalog gained later reach the agents seeded before them, where
  // nobody chose a value (after this, removing a default sticks too).
  if (!services.settings.get('seed.defaults', false)) {
    for (const entry of catalog.agents) {
      const agent = entry.slug ? services.agents.findBySlug(DEFAULT_USER_ID, entry.slug) : null;
      const questions = agent && agent.source === 'local' ? withCatalogDefaults(agent.questions, entry.questions ?? []) : null;
      if (agent && questions) services.agents.update(DEFAULT_USER_ID, String(agent.id), { questions });
    }
    services.settings.set('seed.defaults', true);
  }
}

/** Builds the whole platform on a data dir, in order: database, jobs, modules, transports. Plain Node. */
export function createPlatform(opts: PlatformOptions = {}): Platform {
  return runSteps(platformSteps(opts));
}

/**
 * `createPlatform` a step per turn of the event loop: what the app and the server use, so the
 * process stays responsive (IPC, timers, a window) while it starts.
 */
export function startPlatform(opts: PlatformOptions = {}): Promise<Platform> {
  return runStepsYielding(platformSteps(opts));
}

function* platformSteps(opts: PlatformOptions): Steps<Platform> {
  const config = resolveConfig(opts);
  const log = opts.logger ?? createLogger();
  const db = openDatabase(config.dataDir);
  yield;
  const lock = acquireDataDirLock(config.dataDir);
  try {
    registerFunctions(db);
    yield;
    // Automatic backup of the old schema's data before any migration runs on it.
    yield* migrateSteps(db, { beforeMigrate: () => snapshotBeforeMigrate(db, config.dataDir, latestVersion()) });
  } catch (err) {
    lock.release();
    db.close();
    throw err;
  }
  // WAL checkpoints (page copies and a sync) run in a thread, not inside a request's commit; the
  // thread starts once writes fill the WAL past a threshold (an idle server does without it).
  const checkpointer = startCheckpointer(db, log, { startAtPages: START_AT_PAGES });
  const events = new PlatformEvents();
  events.setMaxListeners(100);
  const ctx: ServiceContext = { db, config, log, events };
  const secrets = opts.secrets ?? plainBox;
  const jobs = new JobQueue(db, log);
  const shutdownHooks: ShutdownHook[] = [];
  const lifecycle = lifecycleOf(shutdownHooks, () => lock.primary, (err) => log.error({ err }, 'starting background work failed'));
  const services = yield* buildServices(ctx, secrets, jobs, lifecycle, opts.clock ?? systemClock);
  yield;
  services.users.ensureDefaults();
  seed(services, opts.resourcesDir ?? defaultResourcesDir());
  yield;
  services.remote.seedFromEnv();
  shutdownHooks.push(() => services.webhookDeliveries.stop());
  // Executions a dead process left running are failed (after listeners attach); on close, running ones get 10 s.
  // A second process on the same data dir (keys, mcp) leaves both to the primary, whose work it would break.
  lifecycle.onPrimary(() => services.executions.recover());
  shutdownHooks.unshift(() => services.executions.shutdown(10_000, { othersToo: lock.primary }));

  const app = yield* appSteps({ services, config, log }, opts.app);
  const platform: Platform = {
    config,
    db,
    log,
    events,
    jobs,
    secrets,
    services,
    app,
    shutdownHooks,
    get primary() {
      return lock.primary;
    },
    async close() {
      // A close always ends within the grace period: each step gets what is left of it, and one
      // that does not end when asked (an embedder thread, a job, a connection) is logged and left
      // behind, instead of holding the process after SIGTERM for good.
      const deadline = Date.now() + shutdownGraceMs(config.env);
      const step = async (name: string, work: () => unknown) => {
        const left = deadline - Date.now();
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), Math.max(0, left))));
        try {
          const r = await Promise.race([Promise.resolve().then(work), late]);
          if (r === 'late') log.warn({ step: name, graceMs: shutdownGraceMs(config.env) }, 'a shutdown step did not end within the grace period; closing without it');
        } catch (err) {
          log.error({ err, step: name }, 'shutdown hook failed');
        } finally {
          clearTimeout(timer);
        }
      };
      for (const [i, hook] of shutdownHooks.entries()) await step(hook.name || `hook ${i + 1}`, hook);
      await step('jobs', () => jobs.stop());
      await step('checkpointer', () => checkpointer.stop());
      if (db.open) {
        try {
          db.pragma('wal_checkpoint(TRUNCATE)');
        } catch {}
        db.close();
      }
      lock.release();
    },
    abandon() {
      jobs.halt();
      void checkpointer.stop();
      if (db.open) db.close();
      lock.release();
    },
  };
  lifecycle.onPrimary(() => jobs.start());
  lifecycle.onPrimary(() => services.schedules.start());
  // All background work starts through lifecycle.onPrimary, here or at take-over: the same list both ways.
  if (lock.primary) lifecycle.becomeOwner();
  else {
    log.info({ dataDir: config.dataDir }, 'another Agent Desk process owns this data dir: background work stays with it');
    // The heir: when the owner exits (or is killed), this process takes the lock and its work.
    lock.watch(() => {
      if (!db.open) return;
      log.warn({ dataDir: config.dataDir }, 'the process that owned this data dir is gone: taking over its background work');
      lifecycle.becomeOwner();
    });
  }
  // Refresh the remote's agents in the background (the first listing waits for it, bounded);
  // offline, the cached list stays readable.
  services.remote.startSync();
  return platform;
}

// What the desktop shell uses of the platform besides createPlatform.
export { listen, type RunningServer } from './transports/http/server.js';
export { LOCALHOST_SETTINGS_EVENT } from './kernel/events.js';
// The desktop shell checks that SQLite loads before the platform starts.
export { StartupError } from './db/sqlite-binding.js';
export { checkSqliteBinding } from './db/connection.js';
