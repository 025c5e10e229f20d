import type { UsersService } from './users.js';

/** The header hosted clients use to choose a workspace. */
export const WORKSPACE_HEADER = 'x-workspace-id';

interface RequestLike {
  get(key: 'principal'): { userId: number };
  req: { header(name: string): string | undefined };
}

/** The workspace a request acts in, by the one rule (UsersService.resolveWorkspace). */
export function requestWorkspace(users: UsersService, c: RequestLike): number {
  return users.resolveWorkspace(c.get('principal').userId, c.req.header(WORKSPACE_HEADER));
}
