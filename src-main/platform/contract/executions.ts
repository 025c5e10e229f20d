import { z } from 'zod';
import { ErrorBody, IdPath, looseBool, pageQuery, queryInt, shapeB } from './common.js';
import { operations } from './operation.js';
import { ToolStep } from './tools.js';
import { PassageScores } from './retrieval.js';
import { MAX_MESSAGE_CHARS } from '../kernel/message-limits.js';
import { ValidationError } from '../kernel/errors.js';
import { laravelErrors, say } from './messages.js';

/** Execution statuses as stored (CONTRACT.md "Execution"); stream events end on `completed` instead of `succeeded`. */
export const EXECUTION_STATUSES = ['starting', 'running', 'succeeded', 'failed', 'canceled'] as const;
/** ext `awaiting_approval`: live only (a tool call waits for a person); the stored row reads `running`. */
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number] | 'awaiting_approval';

/** Where an execution stands, whichever spelling its status has: still going, or how it ended. */
export type ExecutionOutcome = 'running' | 'succeeded' | 'failed' | 'canceled';

/**
 * One reading of a status, stored (`succeeded`) or streamed (`completed`, spec): `starting`,
 * `running`, `awaiting_approval` and anything unknown are still going.
 */
export function executionOutcome(status: string): ExecutionOutcome {
  if (status === 'succeeded' || status === 'completed') return 'succeeded';
  return status === 'failed' || status === 'canceled' ? status : 'running';
}

/** The one "finished" rule: an execution (stored or streamed, any spelling) has ended; unknown statuses have not. */
export const isFinished = (status: string): boolean => executionOutcome(status) !== 'running';

/** The status a stream event gives for a stored one: the spec's last event reads `completed`. */
export const streamStatus = (status: string): string => (status === 'succeeded' ? 'completed' : status);

export const ExecutionError = z.object({ message: z.string(), code: z.string() }).meta({ id: 'ExecutionError' });

/** ext: what the model was given besides the conversation, so a user can see why it answered so. */
export const ExecutionContext = z
  .object({
    memories: z.array(z.object({ id: z.number().int(), memory: z.string() })),
    passages: z.array(
      z.object({
        file_id: z.number().int(),
        filename: z.string().nullable(),
        text: z.string(),
        // ext (CONTRACT.md "Retrieval"): the number the model cites as [n], the passage's ordinal
        // in its file, each method's score, and whether the answer cited it.
        n: z.number().int().optional(),
        position: z.number().int().optional(),
        scores: PassageScores.optional(),
        cited: z.boolean().optional(),
      }),
    ),
  })
  .meta({ id: 'ExecutionContext' });
export type ExecutionContext = z.infer<typeof ExecutionContext>;

/** ext: how fast a finished answer came: milliseconds from the request to its first text, and output tokens per second after it (null when unknown). */
export const ExecutionTiming = z.object({ first_token_ms: z.number().int(), tokens_per_second: z.number().nullable() }).meta({ id: 'ExecutionTiming' });
export type ExecutionTiming = z.infer<typeof ExecutionTiming>;

const executionFields = {
  id: z.number().int(),
  status: z.string(),
  output: z.string(),
  error: ExecutionError.nullable(),
  credits: z.number().nullable(),
  root_id: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  template_id: z.number().int(),
  /** ext: the run's tool calls (CONTRACT.md "Tools and schedules"); present once there is one. */
  steps: z.array(ToolStep).optional(),
};

/** A stream event: the execution without `input`. */
export const ExecutionEvent = z.object(executionFields).meta({ id: 'ExecutionEvent' });
export type ExecutionEvent = z.infer<typeof ExecutionEvent>;

/** GET /api/agent-responses/{id} and the non-stream `responses` items. */
export const Execution = z
  .object({
    ...executionFields,
    input: z.string(),
    /** ext: the model and provider that answered (null until routed). */
    model: z.string().nullable().optional(),
    context: ExecutionContext.optional(),
    /** ext: speed of a finished answer whose first text's time was recorded */
    timing: ExecutionTiming.optional(),
  })
  .meta({ id: 'Execution' });
export type Execution = z.infer<typeof Execution>;

export const ExecuteResponse = z.object({ template_id: z.string(), responses: z.array(Execution) }).meta({ id: 'ExecuteResponse' });
export type ExecuteResponse = z.infer<typeof ExecuteResponse>;

const TextPart = z.object({ type: z.string(), text: z.string().optional() });
/** A message's text, as one string or as parts; over the cap it is refused before anything is stored. */
const TurnContent = z.union([
  z.string().max(MAX_MESSAGE_CHARS),
  z.array(TextPart).superRefine((parts, ctx) => {
    const chars = parts.reduce((n, p) => n + (p.text?.length ?? 0), 0);
    if (chars > MAX_MESSAGE_CHARS) ctx.addIssue({ code: 'too_big', origin: 'string', maximum: MAX_MESSAGE_CHARS, inclusive: true, input: parts, message: '' });
  }),
]);
export const ChatTurn = z.object({
  role: z.string({ error: say.required('role') }),
  content: TurnContent,
});

/** A positive integer id, given as a number or a numeric string. */
const idValue = z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v), z.number().int().positive());

/**
 * `messages` as hosted clients send it: an array, or a string. A string holding a JSON array is
 * that array (one integration serializes it); any other string is one user message.
 */
export function coerceMessages(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (t.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(t);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // not JSON: plain text
    }
  }
  return t === '' ? undefined : [{ role: 'user', content: v }];
}

/** `root_id` 0, "0", "" or null: a new session (hosted clients send 0 for "none"), read as null. */
export function coerceRootId(v: unknown): unknown {
  return v === 0 || v === '0' || v === '' || v === null ? null : v;
}

/** One turn of the conversation as the body gives it, its content read to text. */
export interface ExecuteTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** A message's text: a string, or OpenAI-style parts that each carry text (joined); null otherwise. */
function turnText(content: z.infer<typeof TurnContent>): string | null {
  if (typeof content === 'string') return content;
  return content.every((p) => typeof p.text === 'string') ? content.map((p) => p.text).join('') : null;
}

/**
 * CONTRACT.md "Execution": user/assistant turns alternating and ending on `user`; one `developer`
 * message allowed first; `system` refused. Whether messages are required depends on the agent
 * (the service's rule); an empty list here is no conversation.
 */
function conversationRules(at: string, list: z.infer<typeof ChatTurn>[], ctx: z.RefinementCtx): void {
  let issues = 0;
  const add = (path: (string | number)[], message: string) => {
    issues++;
    ctx.addIssue({ code: 'custom', path, message, input: list });
  };
  let prev: string | null = null;
  let turns = 0;
  list.forEach((m, i) => {
    const key = `${at}.${i}`;
    if (!m.role) return add([i, 'role'], say.required(`${key}.role`));
    if (turnText(m.content) === null) return add([i, 'content'], say.must(`${key}.content`, 'be a string'));
    if (m.role === 'system') return add([i, 'role'], `The ${key}.role may not be system: put instructions in the agent, or send one developer message first.`);
    if (m.role === 'developer') {
      if (i !== 0) add([i, 'role'], `Only the first message may be a developer message (${key} is not the first).`);
      return;
    }
    if (m.role !== 'user' && m.role !== 'assistant') return add([i, 'role'], say.invalid(`${key}.role`, 'use user or assistant'));
    if (prev === m.role) return add([i, 'role'], `The messages must alternate between user and assistant (${key} is a second ${m.role} message in a row).`);
    prev = m.role;
    turns++;
  });
  if (issues || !list.length) return;
  if (!turns) add([], say.must(at, 'hold at least one user message'));
  else if (prev !== 'user') add([], 'The last message must be from the user.');
}

/**
 * `messages` as hosted clients send it (an array, a JSON string, plain text), checked, read as the
 * one developer message and the user/assistant turns. `at`: where it sits, for the messages.
 */
const messagesField = (at: string) =>
  z.preprocess(
    coerceMessages,
    z
      .array(ChatTurn)
      .max(1000)
      .superRefine((list, ctx) => conversationRules(at, list, ctx))
      .transform((list) => {
        const first = list[0];
        const developer = first?.role === 'developer' ? turnText(first.content) : null;
        const turns = list.filter((m) => m.role !== 'developer').map((m) => ({ role: m.role as ExecuteTurn['role'], content: turnText(m.content) ?? '' }));
        return { developer, turns };
      })
      .optional(),
  );

const rootIdField = () => z.preprocess(coerceRootId, idValue.nullable().optional());

/**
 * `answers`: any answers; `messages` and `root_id` among them (the spec's chat agent lists them as
 * questions) are read by the same rules as at the top level, and win over those.
 */
const Answers = z.looseObject({ messages: messagesField('answers.messages'), root_id: rootIdField() });

/** Body keys that steer the request; every other top-level key is an answer (the spec's examples send model, tools...). */
const CONTROL_KEYS = new Set([
  'stream', 'wait_execution', 'waitExecution', 'answers', 'messages', 'file_ids', 'file_id', 'root_id', 'memory_collections', 'parent_id', 'alternative_of',
]);

/**
 * Execute body, as the wire carries it. Types and the conversation's rules only: the rules that
 * depend on the agent (its questions, its type) live in the executions service. Unknown top-level
 * keys are answers. The hosted clients' leniencies (CONTRACT.md "Compatibility with hosted
 * clients") are read here and nowhere else: answers at the top level, `messages` as a JSON string
 * or plain text, `root_id` 0/null, one `file_id`, one memory collection, both spellings of
 * `wait_execution`.
 */
const ExecuteFields = z
  .looseObject({
    stream: looseBool().optional(),
    wait_execution: looseBool().optional(),
    waitExecution: looseBool().optional(),
    answers: Answers.optional(),
    messages: messagesField('messages'),
    file_ids: z.array(idValue).max(100).optional(),
    /** ext: one attachment, as some hosted clients send it (joins `file_ids`) */
    file_id: idValue.optional(),
    root_id: rootIdField(),
    /** ext: collection ids; only memories of these collections enter the context */
    memory_collections: z.preprocess((v) => (typeof v === 'number' || typeof v === 'string' ? [v] : v), z.array(idValue).max(100).optional()),
    /** ext: continue the session after this execution (a branch other than the latest). */
    parent_id: idValue.nullable().optional(),
    /** ext: answer again beside this execution (same session and parent): regenerate, or an edited message. */
    alternative_of: idValue.nullable().optional(),
  })
  .superRefine((b, ctx) => {
    if (b.parent_id != null && b.alternative_of != null) ctx.addIssue({ code: 'custom', path: ['alternative_of'], message: 'Give either alternative_of or parent_id, not both.', input: b.alternative_of });
  })
  .meta({ id: 'ExecuteBody' });

/**
 * The execute body once parsed: what the executions service takes. `answers` holds every answer
 * (`answers` over the body's other top-level keys); ids are numbers, `null` where not given.
 */
export interface ExecuteRequest {
  stream?: boolean;
  /** `wait_execution` or `waitExecution` */
  wait?: boolean;
  answers: Record<string, unknown>;
  /** one developer message, sent first */
  developer: string | null;
  /** the user/assistant turns the client sent (none: no conversation given) */
  turns: ExecuteTurn[];
  /** `file_ids` with `file_id`, each once */
  fileIds: number[];
  rootId: number | null;
  /** ext: only memories of these collections enter the context; null: all of the caller's */
  memoryCollections: number[] | null;
  parentId: number | null;
  alternativeOf: number | null;
}

function toRequest(b: z.output<typeof ExecuteFields>): ExecuteRequest {
  const top: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b)) if (!CONTROL_KEYS.has(k)) top[k] = v;
  const { messages: answeredMessages, root_id: answeredRoot, ...given } = b.answers ?? {};
  const answers = { ...top, ...given };
  const messages = answeredMessages ?? b.messages;
  return {
    ...(b.stream !== undefined ? { stream: b.stream } : {}),
    ...((b.wait_execution ?? b.waitExecution) !== undefined ? { wait: b.wait_execution ?? b.waitExecution } : {}),
    answers,
    developer: messages?.developer ?? null,
    turns: messages?.turns ?? [],
    fileIds: [...new Set([...(b.file_ids ?? []), ...(b.file_id !== undefined ? [b.file_id] : [])])],
    rootId: answeredRoot !== undefined ? answeredRoot : (b.root_id ?? null),
    memoryCollections: b.memory_collections?.length ? [...new Set(b.memory_collections)] : null,
    parentId: b.parent_id ?? null,
    alternativeOf: b.alternative_of ?? null,
  };
}

/** Execute body: validated once (by the route, or by `parseExecuteBody` for callers inside the platform), read into an ExecuteRequest. */
export const ExecuteBody = ExecuteFields.transform(toRequest);
export type ExecuteBody = z.input<typeof ExecuteFields>;

/**
 * For callers inside the platform that build an execute body (a schedule's stored one, the /v1
 * doors, MCP): the route's own schema and 422, so each entry validates once, the same way.
 */
export function parseExecuteBody(raw: unknown): ExecuteRequest {
  const parsed = ExecuteBody.safeParse(raw ?? {});
  if (!parsed.success) throw new ValidationError(laravelErrors(parsed.error.issues, raw));
  return parsed.data;
}

export const ExecuteQuery = z.object({
  wait_execution: looseBool().optional(),
  waitExecution: looseBool().optional(),
  stream: looseBool().optional(),
});

export const AgentResponsePath = z.object({ id: z.string() });

/** ext GET /api/agent-responses/{id}/stream: `Last-Event-ID`, the last event a client holds (its `id:`). */
export const ExecutionStreamHeaders = z.object({ 'last-event-id': z.string().optional() });

/** ext GET /api/agent-responses: the caller's executions, newest first. */
export const ExecutionListQuery = pageQuery({ maxPerPage: 100, defaultPerPage: 15 }).extend({
  agent_id: queryInt().pipe(z.number().int().min(1)).optional(),
  status: z.enum([...EXECUTION_STATUSES, 'completed'], { error: say.invalid('status') }).optional(),
  root_id: queryInt().pipe(z.number().int().min(1)).optional(),
});
export type ExecutionListQuery = z.infer<typeof ExecutionListQuery>;
export const ExecutionPage = shapeB(Execution).meta({ id: 'ExecutionPage' });

/** How long `wait_execution` holds the request before answering the current state (CONTRACT.md "Execution": up to 100 s). */
export const WAIT_MS = 100_000;

const tags = ['Execution'] as const;

/** One execute operation per path: the hosted platform's older `/templates/{id}/execute` reaches the same handler. */
const execute = {
  method: 'post',
  tags,
  description:
    'Answers may come in `answers` or at the top level (`answers` wins). `stream: true` answers Server-Sent Events: `data: <execution without input>` per event, ' +
    '`running` events carry the text since the previous event, the last one is `completed` (or `failed` with `error`). Otherwise answers at once with status ' +
    `\`starting\`, or, with \`wait_execution\`/\`waitExecution\` (body or query), when the execution has ended (up to ${WAIT_MS / 1000} s).`,
  params: IdPath,
  query: ExecuteQuery,
  // Without a content type there is no body: the request is the one of `{}`.
  body: ExecuteBody,
  bodyOptional: true,
  response: ExecuteResponse,
  events: ExecutionEvent,
  okDescription: 'The execution (JSON), or its event stream',
  notFound: 'Agent',
} as const;

const getResponse = { method: 'get', tags, params: AgentResponsePath, response: Execution, notFound: 'Agent response' } as const;

/**
 * Execute and the executions it makes (modules/executions/routes.ts handles them). `/templates/{id}/execute`
 * and `/template-responses/{id}` are the hosted platform's older paths (deprecated).
 */
export const executionOperations = operations({
  executeAgent: { ...execute, path: '/agents/{id}/execute', summary: 'Execute an agent' },
  executeTemplate: { ...execute, path: '/templates/{id}/execute', deprecated: true, summary: 'Execute an agent (the older path of POST /api/agents/{id}/execute)' },
  listAgentResponses: {
    method: 'get',
    path: '/agent-responses',
    tags,
    summary: "List the caller's executions, newest first (ext)",
    description: 'Filters: `agent_id`, `status` (`completed` reads as `succeeded`), `root_id` (one session). Items are the GET /api/agent-responses/{id} shape.',
    query: ExecutionListQuery,
    response: ExecutionPage,
  },
  getAgentResponse: {
    ...getResponse,
    path: '/agent-responses/{id}',
    summary: 'Get an agent response (with ext `context`: the memories and passages the model was given)',
    mcp: { tool: 'get_agent_response', title: 'Get an agent response', description: 'Reads one execution (an agent response) by id: its status, output so far, error and credits.' },
  },
  getTemplateResponse: { ...getResponse, path: '/template-responses/{id}', deprecated: true, summary: 'Get an agent response (the older path of GET /api/agent-responses/{id})' },
  streamAgentResponse: {
    method: 'get',
    path: '/agent-responses/{id}/stream',
    tags,
    summary: 'Re-attach to an execution: its events so far, then live, to the last (ext)',
    description:
      'Server-Sent Events framed as the execute stream, each with an `id:` line: the length of the output a client holds once it has that event. ' +
      'Without `Last-Event-ID` the first event is `running` with the whole output so far; with it, the events after that one. Then live events, ' +
      'ending with `completed` (or `failed`, `canceled` with `error`). A finished execution answers its final event at once.',
    params: AgentResponsePath,
    headers: ExecutionStreamHeaders,
    response: z.never(),
    events: ExecutionEvent,
    onlyEvents: true,
    okDescription: 'The event stream',
    notFound: 'Agent response',
  },
  cancelAgentResponse: {
    method: 'post',
    path: '/agent-responses/{id}/cancel',
    tags,
    summary: 'Cancel a running execution (ext)',
    params: AgentResponsePath,
    response: Execution,
    notFound: 'Agent response',
    errors: { 409: ['Already finished', ErrorBody] },
  },
});
