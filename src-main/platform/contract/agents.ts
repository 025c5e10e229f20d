import { z } from 'zod';
import { IdPath, pageQuery, shapeA, shapeB } from './common.js';
import { operations } from './operation.js';
import { ToolServerRef, ToolServers } from './tools.js';

export const AGENT_TYPES = ['chat', 'image', 'text', 'video'] as const;
export const AgentType = z.enum(AGENT_TYPES);

export const Question = z
  .object({
    type: z.enum(['select', 'number', 'array', 'string', 'boolean']),
    name: z.string().min(1).max(100).regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'The question name must start with a letter and hold only letters, digits and underscores.'),
    description: z.string().max(2000),
    required: z.boolean(),
    options: z.array(z.string().max(200)).min(1).max(500).optional(),
    /** ext: the answer a `select` takes when a client leaves it out (one of `options`) */
    default: z.string().max(200).optional(),
  })
  .meta({ id: 'Question' });
export type Question = z.infer<typeof Question>;

export const Agent = z
  .object({
    id: z.number().int(),
    title: z.string(),
    description: z.string().nullable(),
    long_description: z.string().nullable(),
    workspace_id: z.number().int(),
    visibility: z.string(),
    slug: z.string(),
    active: z.number().int(),
    type: AgentType,
    questions: z.array(Question),
    created_at: z.string(),
    updated_at: z.string(),
    created_by: z.number().int(),
    /** ext: the agent's system prompt. */
    instructions: z.string(),
    /** ext: `remote` for an agent of the connected remote platform (see Settings → Remote). */
    source: z.enum(['local', 'remote']),
    /** ext: whether local memories and files may be sent along when this (remote) agent runs. */
    share_context: z.boolean(),
    /** ext: the MCP servers (and optionally which of their tools) this agent may use. */
    tool_servers: z.array(ToolServerRef).optional(),
  })
  .meta({ id: 'Agent' });
export type Agent = z.infer<typeof Agent>;

const listFilters = z.object({
  q: z.string().max(500).optional(),
  type: AgentType.optional(),
});

export const AgentListQuery = pageQuery({ maxPerPage: 100, defaultPerPage: 15 }).extend(listFilters.shape);
export const AgentPage = shapeB(Agent).meta({ id: 'AgentPage' });

const questionsField = z
  .array(Question)
  .max(100)
  .refine((qs) => new Set(qs.map((q) => q.name)).size === qs.length, 'The questions must have distinct names.')
  .refine((qs) => qs.every((q) => q.type !== 'select' || (q.options?.length ?? 0) > 0), 'A select question needs options.');

export const AgentCreate = z
  .object({
    template_id: z.string().max(200).optional(),
    title: z.string().trim().min(1).max(255).optional(),
    description: z.string().max(2000).nullable().optional(),
    long_description: z.string().max(20000).nullable().optional(),
    type: AgentType.optional(),
    visibility: z.enum(['public', 'private']).optional(),
    slug: z.string().min(1).max(120).regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'The slug may only hold lowercase letters, digits and dashes.').optional(),
    active: z.union([z.literal(0), z.literal(1)]).optional(),
    questions: questionsField.optional(),
    instructions: z.string().max(100000).optional(),
    tool_servers: ToolServers.optional(),
  })
  .meta({ id: 'AgentCreate' });
export type AgentCreate = z.infer<typeof AgentCreate>;

export const AgentUpdate = AgentCreate.omit({ template_id: true })
  .extend({ share_context: z.boolean().optional() })
  .meta({ id: 'AgentUpdate' });
export type AgentUpdate = z.infer<typeof AgentUpdate>;

export const AgentDeleted = z.object({ id: z.number().int(), deleted: z.boolean() });

export const Resource = z
  .object({ id: z.string(), title: z.string(), description: z.string(), created_at: z.string(), updated_at: z.string() })
  .meta({ id: 'Resource' });
export const ResourceListQuery = pageQuery({ maxPerPage: 100, defaultPerPage: 15 }).extend(listFilters.shape);
export const ResourcePage = shapeA(Resource).meta({ id: 'ResourcePage' });

const tags = ['Agents'] as const;

/**
 * The agents and templates operations (modules/agents/routes.ts handles them). `/templates` and
 * `/templates/{id}` are the hosted platform's older paths of listAgents and getAgent (deprecated).
 */
export const agentOperations = operations({
  listResources: { method: 'get', path: '/resources', tags: ['Templates'], summary: 'List templates', query: ResourceListQuery, response: ResourcePage },
  listAgents: {
    method: 'get',
    path: '/agents',
    tags,
    summary: 'List agents',
    query: AgentListQuery,
    response: AgentPage,
    mcp: { tool: 'list_agents', title: 'List agents', description: 'Lists the Agent Desk agents you can run (id, slug, title, type, the questions they accept). Pass an id or slug to run_agent.' },
  },
  listTemplates: { method: 'get', path: '/templates', tags, deprecated: true, summary: 'List agents (the older path of GET /api/agents)', query: AgentListQuery, response: AgentPage },
  getAgent: { method: 'get', path: '/agents/{id}', tags, summary: 'Get an agent', params: IdPath, response: Agent, notFound: 'Agent' },
  getTemplate: { method: 'get', path: '/templates/{id}', tags, deprecated: true, summary: 'Get an agent (the older path of GET /api/agents/{id})', params: IdPath, response: Agent, notFound: 'Agent' },
  createAgent: { method: 'post', path: '/agents', tags, summary: 'Create an agent (ext), optionally from a template_id', body: AgentCreate, response: Agent, status: 201 },
  updateAgent: { method: 'patch', path: '/agents/{id}', tags, summary: 'Update an agent (ext)', params: IdPath, body: AgentUpdate, response: Agent, notFound: 'Agent' },
  deleteAgent: { method: 'delete', path: '/agents/{id}', tags, summary: 'Delete an agent (ext)', params: IdPath, response: AgentDeleted, notFound: 'Agent' },
});
