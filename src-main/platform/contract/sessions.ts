import { z } from 'zod';
import { ErrorBody, IdPath, looseBool, pageQuery, queryInt, shapeB } from './common.js';
import { ExecuteResponse, Execution } from './executions.js';
import { operations } from './operation.js';
import { say } from './messages.js';

/** A session's generation options: each over the agent's answer (or the provider's default) for that session's runs. */
const SessionOptionsShape = z
  .object({
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: z.number().int().min(1).max(1_000_000).optional(),
    top_p: z.number().min(0).max(1).optional(),
  })
  .meta({ id: 'SessionOptions' });
export type SessionOptions = z.infer<typeof SessionOptionsShape>;

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
    /** pinned by the person (a client lists them first: `?pinned=true`, then `?pinned=false`) */
    pinned: z.boolean(),
    /** archived sessions stay readable and searchable; `?archived=false` leaves them out */
    archived: z.boolean(),
    /** the conversation's own instructions, sent after the agent's; null: none */
    instructions: z.string().nullable(),
    /** the conversation's own generation options, over the agent's answers; `{}`: none */
    options: SessionOptionsShape,
  })
  .meta({ id: 'Session' });
export type Session = z.infer<typeof Session>;

export const SessionPage = shapeB(Session).meta({ id: 'SessionPage' });

/**
 * Newest activity first; `agent_id` keeps the sessions of one agent; `q` those
 * whose title, a message or an answer holds it, folding case and accents both ways ("acao" finds
 * "ação", "REVISÃO" finds "revisão"; a `q` under 3 characters folds only ASCII case);
 * `scheduled`, `archived`, `pinned`: false leaves those out, true keeps only those, absent keeps all.
 */
export const SessionListQuery = pageQuery({ maxPerPage: 100, defaultPerPage: 15 }).extend({
  agent_id: queryInt().pipe(z.number().int().min(1)).optional(),
  q: z.string().max(200, say.must('q', 'not be greater than 200 characters')).optional(),
  scheduled: looseBool().optional(),
  archived: looseBool().optional(),
  pinned: looseBool().optional(),
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

/** The most characters a session's instructions hold. */
export const INSTRUCTIONS_MAX = 20_000;

/**
 * ext PATCH /api/sessions/{id}: any of `title` (one line, at most 80 characters kept), `pinned`,
 * `archived`, `instructions` (null or "" clears them), `options` (replaces them whole; null or {} clears).
 */
export const SessionUpdate = z
  .object({
    title: z.string().optional(),
    pinned: z.boolean().optional(),
    archived: z.boolean().optional(),
    instructions: z.string().max(INSTRUCTIONS_MAX).nullable().optional(),
    options: SessionOptionsShape.strict().nullable().optional(),
  })
  .superRefine((b, ctx) => {
    if (b.title === undefined && b.pinned === undefined && b.archived === undefined && b.instructions === undefined && b.options === undefined) {
      ctx.addIssue({ code: 'custom', path: ['title'], message: say.required('title', 'when none of pinned / archived / instructions / options are present'), input: undefined });
    }
  })
  .meta({ id: 'SessionUpdate' });
export type SessionUpdate = z.infer<typeof SessionUpdate>;

/** ext GET /api/sessions/{id}/export: `md` (default) the chosen path as Markdown, `json` the session with every branch. */
export const SessionExportQuery = z.object({ format: z.enum(['md', 'json']).default('md') });

/** The most models one compare runs. */
export const COMPARE_MAX = 4;

/**
 * ext POST /api/agents/{id}/compare: the execute body (answers, messages, root_id, parent_id,
 * file_ids… as POST /api/agents/{id}/execute takes them, without `stream` and `alternative_of`)
 * plus `models`, 2 to 4 distinct model names. Each model answers the same user turn as its own
 * execution, all started at once, siblings in the session's tree (the branch regenerate makes).
 */
export const CompareBody = z
  .looseObject({
    // The bounds only once it is a list of names (pipe: not run on a string).
    models: z
      .array(z.string().trim().min(1).max(200))
      .pipe(z.array(z.string()).min(2).max(COMPARE_MAX))
      .superRefine((list, ctx) => {
        list.forEach((m, i) => {
          if (list.indexOf(m) !== i) ctx.addIssue({ code: 'custom', path: [i], message: say.field(`models.${i}`, 'has a duplicate value'), input: m });
        });
      }),
    stream: looseBool().optional(),
  })
  .superRefine((b, ctx) => {
    if (b.stream) ctx.addIssue({ code: 'custom', path: ['stream'], message: 'Compare answers at once; follow each execution with GET /api/agent-responses/{id}/stream.', input: b.stream });
    if (b.alternative_of != null) ctx.addIssue({ code: 'custom', path: ['alternative_of'], message: 'Compare answers a new user turn; give parent_id or root_id, not alternative_of.', input: b.alternative_of });
  })
  .meta({ id: 'CompareBody' });

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
  getSession: {
    method: 'get',
    path: '/sessions/{id}',
    tags,
    summary: 'A session with its executions in order (ext)',
    description:
      'Every branch: executions sharing a `parent_id` are siblings (regenerated answers, edited messages, the answers of a compare); ' +
      'the chosen path runs from the latest execution up through its parents.',
    params: IdPath,
    response: SessionDetail,
    notFound: 'Session',
  },
  renameSession: {
    method: 'patch',
    path: '/sessions/{id}',
    tags,
    summary: 'Rename, pin, archive a session or set its instructions and options (ext)',
    description:
      'Any of `title`, `pinned`, `archived`, `instructions` (≤ 20,000 characters; sent to the model after the agent\'s instructions), `options` ' +
      '(`temperature` 0–2, `max_tokens`, `top_p` 0–1: over the agent\'s answers for this session\'s next runs; replaces the stored options whole).',
    params: IdPath,
    body: SessionUpdate,
    response: Session,
    notFound: 'Session',
  },
  exportSession: {
    method: 'get',
    path: '/sessions/{id}/export',
    tags,
    summary: 'Download a session as Markdown or JSON (ext)',
    description:
      '`format=md` (default): the chosen path (from the first turn to the latest execution), each answer with its model, citations as footnotes. ' +
      '`format=json`: the session (GET /api/sessions/{id}) with every branch. Answered as an attachment (`Content-Disposition`).',
    params: IdPath,
    query: SessionExportQuery,
    response: z.never(),
    bytes: 'text/markdown',
    onlyBytes: true,
    okDescription: 'The file (text/markdown or application/json)',
    notFound: 'Session',
  },
  compareModels: {
    method: 'post',
    path: '/agents/{id}/compare',
    tags,
    summary: 'Ask 2 to 4 models the same turn at once, side by side (ext)',
    description:
      'The execute body plus `models` (2–4 distinct names). Each model answers as its own execution (answers `model` set to it), all sharing one parent: ' +
      'sibling branches of that turn, like regenerated answers. Answers at once with the executions (`starting`), the first model\'s first; follow each with ' +
      'GET /api/agent-responses/{id}/stream, cancel each on its own. To continue with one, execute with `parent_id` set to its id: that makes it the chosen path.',
    params: IdPath,
    body: CompareBody,
    response: ExecuteResponse,
    notFound: 'Agent',
  },
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
