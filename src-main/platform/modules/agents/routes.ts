import type { AgentsService } from './service.js';
import type { TemplatesService } from './templates.js';
import type { UsersService } from '../access/users.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { agentOperations } from '../../contract/agents.js';
import { shapeA, shapeB } from '../../transports/http/pagination.js';
import { requestWorkspace } from '../access/workspace.js';

/** What listing needs of the remote module: the first sync after start (bounded), waited for before the first listing. */
interface FirstSync {
  firstSync(): Promise<void>;
}

export function agentRoutes({ agents, templates, users, remote }: { agents: AgentsService; templates: TemplatesService; users: UsersService; remote: FirstSync }) {
  const r = createRouter();
  // The hosted platform's older `/templates` paths answer as their `/agents` twins.
  serveOperations(r, agentOperations, {
    listResources: ({ query }) => shapeA(templates.list(query)),
    // A listing right after start waits for the remote's agents (at most 5 s), so that it lists them.
    listAgents: async ({ userId, query }, c) => {
      await remote.firstSync();
      return shapeB(c, agents.list(userId, query));
    },
    listTemplates: async ({ userId, query }, c) => {
      await remote.firstSync();
      return shapeB(c, agents.list(userId, query));
    },
    getAgent: ({ userId, params }) => agents.get(userId, params.id),
    getTemplate: ({ userId, params }) => agents.get(userId, params.id),
    createAgent: ({ userId, body }, c) => agents.create(userId, requestWorkspace(users, c), body),
    updateAgent: ({ userId, params, body }) => agents.update(userId, params.id, body),
    deleteAgent: ({ userId, params }) => agents.delete(userId, params.id),
  });
  return r;
}
