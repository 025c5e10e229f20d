import type { DB } from '../../db/connection.js';
import { DEFAULT_USER_ID, DEFAULT_WORKSPACE_ID } from '../../kernel/context.js';

/** A remote agent's fields as cached in the agents table. */
export interface CachedAgentRow {
  title: string;
  description: string | null;
  long_description: string | null;
  visibility: string;
  active: number;
  type: string;
  questions: string;
  instructions: string;
  now: number;
}

/**
 * Every SQL statement of the remote module: its agents are cached as rows of the agents table
 * (`source = 'remote'`), so they list beside local agents and stay readable offline.
 */
export class RemoteAgentsStore {
  private readonly countStmt;
  private readonly deleteAllStmt;
  private readonly byRemoteStmt;
  private readonly slugTakenStmt;
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly cachedStmt;
  private readonly deleteStmt;
  private readonly remoteIdStmt;
  private readonly shareStmt;

  constructor(private readonly db: DB) {
    this.countStmt = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM agents WHERE source = 'remote'");
    this.deleteAllStmt = db.prepare("DELETE FROM agents WHERE source = 'remote'");
    this.byRemoteStmt = db.prepare<[number], { id: number; slug: string }>("SELECT id, slug FROM agents WHERE source = 'remote' AND remote_id = ?");
    this.slugTakenStmt = db.prepare<[string], { id: number }>('SELECT id FROM agents WHERE slug = ?');
    this.insertStmt = db.prepare(
      `INSERT INTO agents(workspace_id, title, description, long_description, visibility, slug, active, type, questions, instructions, created_by, created_at, updated_at, source, remote_id, remote_synced_at)
       VALUES (@ws, @title, @description, @long_description, @visibility, @slug, @active, @type, @questions, @instructions, @user, @now, @now, 'remote', @remote_id, @now)`,
    );
    this.updateStmt = db.prepare(
      `UPDATE agents SET title=@title, description=@description, long_description=@long_description, visibility=@visibility, active=@active, type=@type,
       questions=@questions, instructions=@instructions, remote_synced_at=@now, updated_at=@now WHERE id=@id`,
    );
    this.cachedStmt = db.prepare<[], { id: number; remote_id: number }>("SELECT id, remote_id FROM agents WHERE source = 'remote'");
    this.deleteStmt = db.prepare('DELETE FROM agents WHERE id = ?');
    this.remoteIdStmt = db.prepare<[number], { remote_id: number | null }>("SELECT remote_id FROM agents WHERE id = ? AND source = 'remote'");
    this.shareStmt = db.prepare<[number], { s: number }>("SELECT share_context AS s FROM agents WHERE id = ? AND source = 'remote'");
  }

  count(): number {
    return this.countStmt.get()!.n;
  }

  /** Forgets every cached remote agent (their executions stay). */
  deleteAll(): void {
    this.deleteAllStmt.run();
  }

  /** The local row caching remote agent `remoteId`, if any. */
  byRemoteId(remoteId: number): { id: number; slug: string } | undefined {
    return this.byRemoteStmt.get(remoteId);
  }

  slugTaken(slug: string): boolean {
    return !!this.slugTakenStmt.get(slug);
  }

  insert(row: CachedAgentRow, slug: string, remoteId: number): void {
    this.insertStmt.run({ ...row, slug, ws: DEFAULT_WORKSPACE_ID, user: DEFAULT_USER_ID, remote_id: remoteId });
  }

  update(id: number, row: CachedAgentRow): void {
    this.updateStmt.run({ ...row, id });
  }

  cached(): { id: number; remote_id: number }[] {
    return this.cachedStmt.all();
  }

  delete(id: number): void {
    this.deleteStmt.run(id);
  }

  remoteIdOf(localAgentId: number): number | null {
    return this.remoteIdStmt.get(localAgentId)?.remote_id ?? null;
  }

  sharesContext(localAgentId: number): boolean {
    return this.shareStmt.get(localAgentId)?.s === 1;
  }

  /** Runs `fn` in one write transaction (a sync replaces the cache all at once). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }
}
