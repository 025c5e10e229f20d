import { DEFAULT_USER_ID, DEFAULT_WORKSPACE_ID, type ServiceContext } from '../../kernel/context.js';
import { ForbiddenError, ValidationError } from '../../kernel/errors.js';
import { nowMicros } from '../../kernel/time.js';
import { UsersStore } from './store.js';

/** Users and workspaces: a new install has user 1 and workspace 1 ("Personal"). */
export class UsersService {
  private readonly store: UsersStore;

  constructor(ctx: ServiceContext) {
    this.store = new UsersStore(ctx.db);
  }

  ensureDefaults(): void {
    this.store.ensureMember({ id: DEFAULT_USER_ID, name: 'Me' }, { id: DEFAULT_WORKSPACE_ID, name: 'Personal' }, 'owner', nowMicros());
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
      if (this.store.isMember(id, userId)) return id;
      if (this.store.workspaceExists(id)) throw new ForbiddenError('You are not a member of this workspace.');
    }
    return this.store.selectedWorkspace(userId) ?? DEFAULT_WORKSPACE_ID;
  }

  workspaceIdsOf(userId: number): number[] {
    return this.store.workspaceIdsOf(userId);
  }
}
