import type { ServiceContext } from '../../kernel/context.js';
import type { SettingsService } from '../../kernel/settings.js';
import type { AgentsService } from '../agents/service.js';
import type { SecretBox } from '../../kernel/secrets.js';
import type { Agent } from '../../contract/agents.js';
import type { RemoteSettings, RemoteTestResult } from '../../contract/remote.js';
import { RemoteClient, RemoteError } from './client.js';
import { RemoteAgentRow } from './rows.js';
import { PlatformError, ValidationError } from '../../kernel/errors.js';
import { slugify } from '../agents/service.js';
import { isoMicros, nowMicros } from '../../kernel/time.js';
import { RemoteAgentsStore, type CachedAgentRow } from './store.js';
import { keepSecretOnlyWhereEntered } from '../../kernel/kept-secret.js';
import { noTrailingSlash } from '../../kernel/trim.js';

declare module '../../kernel/settings.js' {
  interface SettingsMap {
    'remote': Partial<Stored>;
  }
}


interface Stored {
  base_url: string | null;
  api_key_sealed: string | null;
  status: 'online' | 'offline' | null;
  last_sync_at: number | null;
  last_error: string | null;
}

const KEY = 'remote';
/** How long a listing waits for the first sync after start: the remote timeout of the contract. */
const FIRST_SYNC_WAIT_MS = 5_000;

const EMPTY: Stored = { base_url: null, api_key_sealed: null, status: null, last_sync_at: null, last_error: null };

/**
 * The optional remote platform: its connection settings (key sealed at rest, never shown),
 * its agents cached as local rows (`source = 'remote'`) so they list beside local ones and
 * stay readable offline, and the import of a remote agent into a local one.
 */
export class RemoteService {
  private readonly store: RemoteAgentsStore;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly settings: SettingsService,
    private readonly agents: AgentsService,
    private readonly secrets: SecretBox,
  ) {
    this.store = new RemoteAgentsStore(ctx.db);
  }

  /** The first sync after start, or the bound on waiting for it (whichever settles first). */
  private first: Promise<void> = Promise.resolve();

  /**
   * Starts refreshing the remote's agents in the background (the platform's start). Listings wait
   * for this first sync, at most FIRST_SYNC_WAIT_MS from now (CONTRACT.md "Lean start"): a client
   * that lists once at start sees the remote agents; offline, the cached list is shown after it.
   */
  startSync(): void {
    if (this.view().status === 'unconfigured') return;
    const synced = this.sync().then(
      () => {},
      () => {},
    );
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_SYNC_WAIT_MS).unref()));
    this.first = Promise.race([synced, bound]).finally(() => clearTimeout(timer));
  }

  /** Settles once the first sync after start has ended, or at most FIRST_SYNC_WAIT_MS after it began. */
  firstSync(): Promise<void> {
    return this.first;
  }

  /** Env seeds the settings once (AGENT_DESK_REMOTE_URL + AGENT_DESK_REMOTE_API_KEY); the app can change them later. */
  seedFromEnv(): void {
    const env = this.ctx.config.env;
    const url = env.AGENT_DESK_REMOTE_URL?.trim();
    const key = env.AGENT_DESK_REMOTE_API_KEY?.trim();
    const cur = this.stored();
    if (url && !cur.base_url) this.save({ ...cur, base_url: noTrailingSlash(url), api_key_sealed: key ? this.secrets.seal(key) : cur.api_key_sealed });
  }

  private stored(): Stored {
    return { ...EMPTY, ...this.settings.get(KEY, {}) };
  }

  private save(s: Stored): void {
    this.settings.set(KEY, s);
  }

  private cachedCount(): number {
    return this.store.count();
  }

  view(): RemoteSettings {
    const s = this.stored();
    return {
      base_url: s.base_url,
      has_api_key: !!s.api_key_sealed,
      status: !s.base_url || !s.api_key_sealed ? 'unconfigured' : (s.status ?? 'offline'),
      last_sync_at: s.last_sync_at ? isoMicros(s.last_sync_at) : null,
      last_error: s.last_error,
      agent_count: this.cachedCount(),
      key_encrypted: this.secrets.encrypted,
    };
  }

  update(body: { base_url?: string | null; api_key?: string | null }): RemoteSettings {
    const cur = this.stored();
    const next: Stored = { ...cur };
    if (body.base_url !== undefined) next.base_url = body.base_url ? noTrailingSlash(body.base_url) : null;
    if (body.api_key !== undefined) next.api_key_sealed = body.api_key ? this.secrets.seal(body.api_key) : null;
    // A kept key goes only to the URL it was entered for.
    keepSecretOnlyWhereEntered(
      { kept: !!cur.api_key_sealed, given: body.api_key !== undefined, moved: next.base_url && next.base_url !== cur.base_url ? 'base_url' : null },
      () => 'To change the remote platform\'s base URL, enter its API key again: a stored key is only sent to the address it was entered for.',
    );
    if (next.base_url !== cur.base_url || next.api_key_sealed !== cur.api_key_sealed) {
      next.status = null;
      next.last_error = null;
    }
    this.save(next);
    // Disconnecting (no URL) forgets the cached agents; their executions stay.
    if (!next.base_url) this.store.deleteAll();
    return this.view();
  }

  /** The client for the configured remote, or a clear 422 when it is not configured. */
  client(): RemoteClient {
    const s = this.stored();
    if (!s.base_url || !s.api_key_sealed) {
      throw new PlatformError(422, 'No remote platform is configured. Add its URL and key in Settings → Remote, or set AGENT_DESK_REMOTE_URL and AGENT_DESK_REMOTE_API_KEY.', 'remote_unconfigured');
    }
    let key: string;
    try {
      key = this.secrets.open(s.api_key_sealed);
    } catch {
      throw new PlatformError(422, 'The stored remote key cannot be decrypted on this machine. Enter it again in Settings → Remote.', 'remote_key_unreadable');
    }
    const timeout = Number(this.ctx.config.env.AGENT_DESK_REMOTE_TIMEOUT_MS) || 15_000;
    return new RemoteClient(s.base_url, key, timeout);
  }

  private record(ok: boolean, error: string | null, synced = false): void {
    const s = this.stored();
    this.save({ ...s, status: ok ? 'online' : 'offline', last_error: error, last_sync_at: synced ? nowMicros() : s.last_sync_at });
  }

  /** Marks the connection's state after a forwarded call (execution) so Settings shows it. */
  noteOutcome(err: unknown): void {
    if (!err) this.record(true, null);
    else if (err instanceof RemoteError) this.record(false, err.message);
  }

  async test(): Promise<RemoteTestResult> {
    const client = this.client();
    const t0 = performance.now();
    try {
      const page = await client.agentsPage(1, 1);
      this.record(true, null);
      return { reachable: true, agent_count: page.total, latency_ms: Math.round(performance.now() - t0), error: null };
    } catch (err) {
      const message = err instanceof RemoteError ? err.message : 'The remote platform could not be reached.';
      this.record(false, message);
      return { reachable: false, agent_count: null, latency_ms: null, error: message };
    }
  }

  /** Refreshes the cached remote agents. Offline, the cache stays as it was and the error is recorded. */
  async sync(): Promise<{ synced: number; removed: number; settings: RemoteSettings }> {
    const client = this.client();
    let list: unknown[];
    try {
      list = await client.allAgents();
    } catch (err) {
      const message = err instanceof RemoteError ? err.message : 'The remote platform could not be reached.';
      this.record(false, message);
      throw new PlatformError(502, message, err instanceof RemoteError ? err.code : 'remote_error');
    }
    const result = this.store.transaction(() => this.upsert(list));
    this.record(true, null, true);
    return { ...result, settings: this.view() };
  }

  /** Caches the remote's agents, each parsed by RemoteAgentRow first; one it cannot read is left out (and logged). */
  private upsert(list: unknown[]): { synced: number; removed: number } {
    const now = nowMicros();
    const seen = new Set<number>();
    let synced = 0;
    let unreadable = 0;
    for (const raw of list) {
      const parsed = RemoteAgentRow.safeParse(raw);
      if (!parsed.success) {
        unreadable++;
        continue;
      }
      const a = parsed.data;
      if (seen.has(a.id)) continue;
      seen.add(a.id);
      const row: CachedAgentRow = {
        title: a.title,
        description: a.description,
        long_description: a.long_description,
        visibility: a.visibility,
        active: a.active,
        type: a.type,
        questions: JSON.stringify(a.questions),
        instructions: a.instructions,
        now,
      };
      const existing = this.store.byRemoteId(a.id);
      if (existing) this.store.update(existing.id, row);
      else {
        let slug = `remote-${slugify(a.slug || a.title)}`;
        for (let n = 2; this.store.slugTaken(slug); n++) slug = `remote-${slugify(a.slug || a.title)}-${n}`;
        this.store.insert(row, slug, a.id);
      }
      synced++;
    }
    if (unreadable) this.ctx.log.warn({ unreadable }, 'The remote platform listed agents this Agent Desk cannot read; they were left out.');
    const stale = this.store.cached().filter((r) => !seen.has(r.remote_id));
    for (const r of stale) this.store.delete(r.id);
    return { synced, removed: stale.length };
  }

  /** The remote agent's id on the remote platform, for a cached local row. */
  remoteIdOf(localAgentId: number): number | null {
    return this.store.remoteIdOf(localAgentId);
  }

  /** Whether the user allowed local memories and files to be sent along with this remote agent. */
  sharesContext(localAgentId: number): boolean {
    return this.store.sharesContext(localAgentId);
  }

  /** Copies a remote agent (questions, instructions, texts) into a new local agent. */
  importAgent(userId: number, workspaceId: number, rawId: string): Agent {
    const agent = this.agents.get(userId, rawId);
    if (agent.source !== 'remote') throw ValidationError.field('id', 'Only a remote agent can be imported.');
    return this.agents.create(userId, workspaceId, {
      title: agent.title,
      description: agent.description,
      long_description: agent.long_description,
      type: agent.type,
      questions: agent.questions,
      instructions: agent.instructions,
    });
  }
}
