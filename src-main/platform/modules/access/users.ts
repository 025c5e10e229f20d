import { DEFAULT_USER_ID, DEFAULT_WORKSPACE_ID, type ServiceContext } from '../../kernel/context.js';
import { ForbiddenError, ValidationError } from '../../kernel/errors.js';
import { nowMicros } from '../../kernel/time.js';


/** Users and workspaces: a new install has user 1 and workspace 1 ("Personal"). */
export class UsersService {
  private readonly memberStmt;
  private readonly selectedStmt;
  private readonly workspaceStmt;

  constructor(private readonly ctx: ServiceContext) {
    this.memberStmt = ctx.db.prepare<[number, number], { ok: number }>('SELECT 1 AS ok FROM workspace_members WHERE workspace_id = ? AND user_id = ?');
    this.workspaceStmt = ctx.db.prepare<[number], { ok: number }>('SELECT 1 AS ok FROM workspaces WHERE id = ?');
    this.selectedStmt = ctx.db.prepare<[number], { selected_workspace_id: number | null }>('SELECT selected_workspace_id FROM users WHERE id = ?');
  }

  ensureDefaults(): void {
    const db = this.ctx.db;
    const now = nowMicros();
    db.transaction(() => {
      db.prepare('INSERT OR IGNORE INTO users(id, name, selected_workspace_id, created_at) VALUES (?, ?, ?, ?)').run(DEFAULT_USER_ID, 'Me', DEFAULT_WORKSPACE_ID, now);
      db.prepare('INSERT OR IGNORE INTO workspaces(id, name, created_at) VALUES (?, ?, ?)').run(DEFAULT_WORKSPACE_ID, 'Personal', now);
      db.prepare('INSERT OR IGNORE INTO workspace_members(workspace_id, user_id, role) VALUES (?, ?, ?)').run(DEFAULT_WORKSPACE_ID, DEFAULT_USER_ID, 'owner');
    })();
  }

  /**
   * The workspace a request acts in (the one rule; routes reach it through `requestWorkspace`):
   * the `x-workspace-id` header when it names a workspace the user belongs to; one that exists
   * but is not the user's is 403; one that names no workspace here (an id copied from the hosted
   * platform) or no header means the user's selected workspace. Not an integer: 422.
   */
  resolveWorkspace(userId: number, header: string | undefined | null): number {
    if (header !== undefined && header !== null && header.trim() !== '') {
      const raw = header.trim();
      if (!/^\d{1,15}$/.test(raw)) throw ValidationError.field('x-workspace-id', 'The x-workspace-id header must be an integer.');
      const id = Number(raw);
      if (this.memberStmt.get(id, userId)) return id;
      if (this.workspaceStmt.get(id)) throw new ForbiddenError('You are not a member of this workspace.');
    }
    return this.selectedStmt.get(userId)?.selected_workspace_id ?? DEFAULT_WORKSPACE_ID;
  }

  workspaceIdsOf(userId: number): number[] {
    return this.ctx.db
      .prepare<[number], { workspace_id: number }>('SELECT workspace_id FROM workspace_members WHERE user_id = ?')
      .all(userId)
      .map((r) => r.workspace_id);
  }
}
