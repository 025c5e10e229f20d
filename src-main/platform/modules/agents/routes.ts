import { createRoute } from '@hono/zod-openapi';
import type { AgentsService } from './service.js';
import type { TemplatesService } from './templates.js';
import type { UsersService } from '../access/users.js';
import { createRouter, errorResponses, notFound, ok, jsonBodyOf } from '../../transports/http/router.js';
import { Agent, AgentCreate, AgentDeleted, AgentListQuery, AgentPage, AgentUpdate, ResourceListQuery, ResourcePage } from '../../contract/agents.js';
import { IdPath } from '../../contract/common.js';
import { shapeA, shapeB } from '../../transports/http/pagination.js';
import { requestWorkspace } from '../access/workspace.js';

const tags = ['Agents'];

export function agentRoutes({ agents, templates, users }: { agents: AgentsService; templates: TemplatesService; users: UsersService }) {
  const r = createRouter();

  r.openapi(
    createRoute({ method: 'get', path: '/resources', tags: ['Templates'], summary: 'List templates', request: { query: ResourceListQuery }, responses: { ...ok(ResourcePage), ...errorResponses } }),
    (c) => c.json(shapeA(templates.list(c.req.valid('query'))), 200),
  );

  // `/templates` and `/templates/{id}` are the hosted platform's older paths of the same two
  // routes (deprecated in the contract, one handler each).
  for (const [path, older] of [['/agents', false], ['/templates', true]] as const) r.openapi(
    createRoute({ method: 'get', path, tags, deprecated: older, summary: older ? 'List agents (the older path of GET /api/agents)' : 'List agents', request: { query: AgentListQuery }, responses: { ...ok(AgentPage), ...errorResponses } }),
    (c) => c.json(shapeB(c, agents.list(c.get('principal').userId, c.req.valid('query'))), 200),
  );

  for (const [path, older] of [['/agents/{id}', false], ['/templates/{id}', true]] as const) r.openapi(
    createRoute({ method: 'get', path, tags, deprecated: older, summary: older ? 'Get an agent (the older path of GET /api/agents/{id})' : 'Get an agent', request: { params: IdPath }, responses: { ...ok(Agent), ...notFound('Agent'), ...errorResponses } }),
    (c) => c.json(agents.get(c.get('principal').userId, c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/agents',
      tags,
      summary: 'Create an agent (ext), optionally from a template_id',
      request: jsonBodyOf(AgentCreate),
      responses: { 201: { content: { 'application/json': { schema: Agent } }, description: 'Created' }, ...errorResponses },
    }),
    (c) => {
      const { userId } = c.get('principal');
      const ws = requestWorkspace(users, c);
      return c.json(agents.create(userId, ws, c.req.valid('json')), 201);
    },
  );

  r.openapi(
    createRoute({ method: 'patch', path: '/agents/{id}', tags, summary: 'Update an agent (ext)', request: { params: IdPath, ...jsonBodyOf(AgentUpdate) }, responses: { ...ok(Agent), ...notFound('Agent'), ...errorResponses } }),
    (c) => c.json(agents.update(c.get('principal').userId, c.req.valid('param').id, c.req.valid('json')), 200),
  );

  r.openapi(
    createRoute({ method: 'delete', path: '/agents/{id}', tags, summary: 'Delete an agent (ext)', request: { params: IdPath }, responses: { ...ok(AgentDeleted), ...notFound('Agent'), ...errorResponses } }),
    (c) => c.json(agents.delete(c.get('principal').userId, c.req.valid('param').id), 200),
  );

  return r;
}

