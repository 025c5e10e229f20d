import type { AgentsService } from './service.js';
import type { TemplatesService } from './templates.js';
import type { UsersService } from '../access/users.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { agentOperations } from '../../contract/agents.js';
import { shapeA, shapeB } from '../../transports/http/pagination.js';
import { requestWorkspace } from '../access/workspace.js';

export function agentRoutes({ agents, templates, users }: { agents: AgentsService; templates: TemplatesService; users: UsersService }) {
  const r = createRouter();
  // The hosted platform's older `/templates` paths answer as their `/agents` twins.
  serveOperations(r, agentOperations, {
    listResources: ({ query }) => shapeA(templates.list(query)),
    listAgents: ({ userId, query }, c) => shapeB(c, agents.list(userId, query)),
    listTemplates: ({ userId, query }, c) => shapeB(c, agents.list(userId, query)),
    getAgent: ({ userId, params }) => agents.get(userId, params.id),
    getTemplate: ({ userId, params }) => agents.get(userId, params.id),
    createAgent: ({ userId, body }, c) => agents.create(userId, requestWorkspace(users, c), body),
    updateAgent: ({ userId, params, body }) => agents.update(userId, params.id, body),
    deleteAgent: ({ userId, params }) => agents.delete(userId, params.id),
  });
  return r;
}
