import type { DB } from '../../db/connection.js';

/** A row of `api_keys`: only the key's hash is stored. */
export interface KeyRow {
  id: number;
  user_id: number;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** The SQL of users, workspaces and memberships, statements prepared once. */
export class UsersStore {
  private readonly memberStmt;
  private readonly workspaceStmt;
  private readonly selectedStmt;
  private readonly workspaceIdsStmt;
  private readonly insertUserStmt;
  private readonly insertWorkspaceStmt;
  private readonly insertMemberStmt;

  constructor(private readonly db: DB) {
    this.memberStmt = db.prepare<[number, number], { ok: number }>('SELECT 1 AS ok FROM workspace_members WHERE workspace_id = ? AND user_id = ?');
    this.workspaceStmt = db.prepare<[number], { ok: number }>('SELECT 1 AS ok FROM workspaces WHERE id = ?');
    this.selectedStmt = db.prepare<[number], { selected_workspace_id: number | null }>('SELECT selected_workspace_id FROM users WHERE id = ?');
    this.workspaceIdsStmt = db.prepare<[number], { workspace_id: number }>('SELECT workspace_id FROM workspace_members WHERE user_id = ?');
    this.insertUserStmt = db.prepare<[number, string, number, number]>('INSERT OR IGNORE INTO users(id, name, selected_workspace_id, created_at) VALUES (?, ?, ?, ?)');
    this.insertWorkspaceStmt = db.prepare<[number, string, number]>('INSERT OR IGNORE INTO workspaces(id, name, created_at) VALUES (?, ?, ?)');
    this.insertMemberStmt = db.prepare<[number, number, string]>('INSERT OR IGNORE INTO workspace_members(workspace_id, user_id, role) VALUES (?, ?, ?)');
  }

  isMember(workspaceId: number, userId: number): boolean {
    return !!this.memberStmt.get(workspaceId, userId);
  }

  workspaceExists(id: number): boolean {
    return !!this.workspaceStmt.get(id);
  }

  /** The workspace the user last chose, or null (or undefined for an unknown user). */
  selectedWorkspace(userId: number): number | null | undefined {
    return this.selectedStmt.get(userId)?.selected_workspace_id;
  }

  workspaceIdsOf(userId: number): number[] {
    return this.workspaceIdsStmt.all(userId).map((r) => r.workspace_id);
  }

  /** The user, the workspace and the user's membership in it, each unless it already exists; in one transaction. */
  ensureMember(user: { id: number; name: string }, workspace: { id: number; name: string }, role: string, now: number): void {
    this.db.transaction(() => {
      this.insertUserStmt.run(user.id, user.name, workspace.id, now);
      this.insertWorkspaceStmt.run(workspace.id, workspace.name, now);
      this.insertMemberStmt.run(workspace.id, user.id, role);
    })();
  }
}

/** The SQL of API keys, statements prepared once. */
export class KeysStore {
  private readonly insertStmt;
  private readonly oneStmt;
  private readonly listStmt;
  private readonly revokeStmt;
  private readonly byHashStmt;
  private readonly touchStmt;

  constructor(db: DB) {
    this.insertStmt = db.prepare<[number, string, string, string, number]>('INSERT INTO api_keys(user_id, name, prefix, key_hash, created_at) VALUES (?, ?, ?, ?, ?)');
    this.oneStmt = db.prepare<[number, number], KeyRow>('SELECT * FROM api_keys WHERE id = ? AND user_id = ?');
    this.listStmt = db.prepare<[number], KeyRow>('SELECT * FROM api_keys WHERE user_id = ? ORDER BY id DESC');
    this.revokeStmt = db.prepare<[number, number, number]>('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL');
    this.byHashStmt = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL');
    this.touchStmt = db.prepare<[number, number]>('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  }

  insert(userId: number, name: string, prefix: string, keyHash: string, now: number): number {
    return Number(this.insertStmt.run(userId, name, prefix, keyHash, now).lastInsertRowid);
  }

  one(userId: number, id: number): KeyRow | undefined {
    return this.oneStmt.get(id, userId);
  }

  /** Newest first, revoked ones included. */
  list(userId: number): KeyRow[] {
    return this.listStmt.all(userId);
  }

  /** true when a live key was revoked now. */
  revoke(userId: number, id: number, now: number): boolean {
    return this.revokeStmt.run(now, id, userId).changes > 0;
  }

  /** The live (not revoked) key with this hash. */
  liveByHash(keyHash: string): KeyRow | undefined {
    return this.byHashStmt.get(keyHash);
  }

  touch(id: number, now: number): void {
    this.touchStmt.run(now, id);
  }
}
