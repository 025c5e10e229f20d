import { z } from 'zod';
import { ErrorBody, IdPath, looseBool, pageQuery, queryInt, shapeB } from './common.js';
import { Execution } from './executions.js';
import { operations } from './operation.js';

/**
 * ext: chat sessions, i.e. the executions sharing a `root_id` (CONTRACT.md "Execution"), listed
 * by the platform so every client (the app in Electron or any browser) sees the same list.
 */
export const Session = z
  .object({
    /** the session's root_id (the id of its first execution) */
    id: z.number().int(),
    /** the agent (template_id) of its first execution */
    agent_id: z.number().int(),
    /** the first user message, whitespace collapsed, at most 80 characters */
    title: z.string(),
    /** how many executions it holds */
    turns: z.number().int(),
    /** the status of its latest execution */
    last_status: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    /** ext: the schedule whose run started this session (its name may be null), else null */
    schedule: z.object({ id: z.number().int(), name: z.string().nullable() }).nullable(),
  })
  .meta({ id: 'Session' });
export type Session = z.infer<typeof Session>;

export const SessionPage = shapeB(Session).meta({ id: 'SessionPage' });

/**
 * Newest activity first; `agent_id` keeps the sessions of one agent; `q` those whose title, a
 * message or an answer holds it; `scheduled` false leaves out the sessions schedules started
 * (true keeps only those).
 */
export const SessionListQuery = pageQuery({ maxPerPage: 100, defaultPerPage: 15 }).extend({
  agent_id: queryInt().pipe(z.number().int().min(1)).optional(),
  q: z.string().max(200, 'The q field must not be greater than 200 characters.').optional(),
  scheduled: looseBool().optional(),
});
export type SessionListQuery = z.infer<typeof SessionListQuery>;

/**
 * One session with its executions in order, each the GET /api/agent-responses/{id} shape.
 * `earlier`: the conversation its first request was sent with before its last user message (a
 * session started from a given history, e.g. the app's "regenerate"); empty for most sessions.
 */
export const SessionDetail = Session.extend({
  earlier: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() })),
  /** `parent_id`: the execution each follows (null: the first turn); executions sharing one are alternatives. */
  executions: z.array(
    Execution.extend({
      parent_id: z.number().int().nullable(),
      /** ext: the answers it ran with (model, temperature, tools…), so a client continues with the same */
      answers: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
}).meta({ id: 'SessionDetail' });
export type SessionDetail = z.infer<typeof SessionDetail>;

/** ext PATCH /api/sessions/{id}: the title the user gives a session (one line, at most 80 characters kept). */
export const SessionRename = z.object({ title: z.string({ error: 'The title field is required.' }) }).meta({ id: 'SessionRename' });

export const SessionDeleted = z.object({ id: z.number().int(), deleted: z.literal(true) }).meta({ id: 'SessionDeleted' });

const tags = ['Sessions'] as const;

/** ext: the caller's chat sessions (modules/executions/routes.ts handles them). */
export const sessionOperations = operations({
  listSessions: {
    method: 'get',
    path: '/sessions',
    tags,
    summary: "List the caller's chat sessions, newest activity first (ext)",
    description: "A session is the executions sharing a `root_id`; its `id` is that root_id. `agent_id` keeps one agent's sessions.",
    query: SessionListQuery,
    response: SessionPage,
  },
  getSession: { method: 'get', path: '/sessions/{id}', tags, summary: 'A session with its executions in order (ext)', params: IdPath, response: SessionDetail, notFound: 'Session' },
  renameSession: { method: 'patch', path: '/sessions/{id}', tags, summary: 'Rename a session (ext)', params: IdPath, body: SessionRename, response: Session, notFound: 'Session' },
  deleteSession: {
    method: 'delete',
    path: '/sessions/{id}',
    tags,
    summary: 'Delete a session and its executions (ext); 409 while one runs',
    params: IdPath,
    response: SessionDeleted,
    notFound: 'Session',
    errors: { 409: ['An execution of it is running', ErrorBody] },
  },
});
