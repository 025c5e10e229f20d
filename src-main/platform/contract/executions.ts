import { z } from 'zod';
import { looseBool, pageQuery, queryInt, shapeB } from './common.js';
import { ToolStep } from './tools.js';
import { PassageScores } from './retrieval.js';
import { MAX_MESSAGE_CHARS } from '../kernel/message-limits.js';

/** Execution statuses as stored (CONTRACT.md "Execution"); stream events end on `completed` instead of `succeeded`. */
export const EXECUTION_STATUSES = ['starting', 'running', 'succeeded', 'failed', 'canceled'] as const;
/** ext `awaiting_approval`: live only (a tool call waits for a person); the stored row reads `running`. */
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number] | 'awaiting_approval';

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
  role: z.string({ error: 'The role field is required.' }),
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

/** `root_id` 0, "0", "" or null: a new session (hosted clients send 0 for "none"). */
export function coerceRootId(v: unknown): unknown {
  return v === 0 || v === '0' || v === '' || v === null ? undefined : v;
}

/**
 * Execute body. Types only: the rules that depend on the agent (its questions, its type) and the
 * conversation rules live in the executions service. Unknown top-level keys are answers.
 */
export const ExecuteBody = z
  .looseObject({
    stream: looseBool().optional(),
    wait_execution: looseBool().optional(),
    waitExecution: looseBool().optional(),
    answers: z.record(z.string(), z.unknown()).optional(),
    messages: z.preprocess(coerceMessages, z.array(ChatTurn).max(1000).optional()),
    file_ids: z.array(idValue).max(100).optional(),
    /** ext: one attachment, as some hosted clients send it (joins `file_ids`) */
    file_id: idValue.optional(),
    root_id: z.preprocess(coerceRootId, idValue.optional()),
    /** ext: collection ids; only memories of these collections enter the context */
    memory_collections: z.preprocess((v) => (typeof v === 'number' || typeof v === 'string' ? [v] : v), z.array(idValue).max(100).optional()),
    /** ext: continue the session after this execution (a branch other than the latest). */
    parent_id: idValue.nullable().optional(),
    /** ext: answer again beside this execution (same session and parent): regenerate, or an edited message. */
    alternative_of: idValue.nullable().optional(),
  })
  .meta({ id: 'ExecuteBody' });
export type ExecuteBody = z.infer<typeof ExecuteBody>;

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
  status: z.enum([...EXECUTION_STATUSES, 'completed'], { error: 'The selected status is invalid.' }).optional(),
  root_id: queryInt().pipe(z.number().int().min(1)).optional(),
});
export type ExecutionListQuery = z.infer<typeof ExecutionListQuery>;
export const ExecutionPage = shapeB(Execution).meta({ id: 'ExecutionPage' });
