import { z } from 'zod';
import { MAX_MESSAGE_CHARS } from '../kernel/message-limits.js';
import { operations } from './operation.js';
import { openAIErrors } from './openai.js';

/**
 * `POST /v1/responses` (OpenAI's Responses API) as far as Agent Desk serves it: text and image
 * input, instructions, function tools, streaming, `previous_response_id`. Loose objects, as on
 * /v1/chat/completions: unknown fields pass, fields we cannot honour are refused by name.
 */

/** An input item: a message (`role`), a `function_call` the model made, or a `function_call_output`. */
export const ResponseInputItem = z.looseObject({
  type: z.string().max(64).optional(),
  role: z.string().max(32).optional(),
  content: z.unknown().optional(),
  call_id: z.string().max(256).optional(),
  name: z.string().max(256).optional(),
  arguments: z.string().max(MAX_MESSAGE_CHARS).optional(),
  output: z.unknown().optional(),
});

export const ResponseFunctionTool = z.looseObject({
  type: z.string().max(64),
  name: z.string().max(256).optional(),
  description: z.string().max(100_000).nullable().optional(),
  parameters: z.record(z.string(), z.unknown()).nullable().optional(),
  strict: z.boolean().nullable().optional(),
});

export const ResponsesRequest = z
  .looseObject({
    /** an agent's slug, or a raw provider model (run by the default chat agent) */
    model: z.string().min(1).max(256),
    input: z.union([z.string().max(MAX_MESSAGE_CHARS), z.array(ResponseInputItem).min(1).max(10000)]),
    instructions: z.string().max(MAX_MESSAGE_CHARS).nullable().optional(),
    stream: z.boolean().nullable().optional(),
    tools: z.array(ResponseFunctionTool).max(128).nullable().optional(),
    tool_choice: z.unknown().optional(),
    parallel_tool_calls: z.boolean().nullable().optional(),
    /** `resp_<execution id>`: continue that response's session */
    previous_response_id: z.string().max(256).nullable().optional(),
    /** Agent Desk stores every execution (it is the app's history); the value is echoed. */
    store: z.boolean().nullable().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().min(0).max(1).nullable().optional(),
    max_output_tokens: z.number().int().min(1).max(1_000_000).nullable().optional(),
    metadata: z.record(z.string().max(64), z.string().max(512)).nullable().optional(),
    /** ext: answers to the agent's questions, as on execute */
    answers: z.record(z.string(), z.unknown()).optional(),
    /** ext: file ids to attach, as on execute */
    file_ids: z.array(z.number().int().min(1)).max(100).optional(),
  })
  .meta({ id: 'ResponsesRequest' });
export type ResponsesRequest = z.infer<typeof ResponsesRequest>;

const OutputItem = z.looseObject({ type: z.string(), id: z.string() });

/** A response object (`resp_<execution id>`), as the `openai` SDK reads it. */
export const ResponseObject = z
  .looseObject({
    id: z.string(),
    object: z.literal('response'),
    created_at: z.number().int(),
    status: z.enum(['completed', 'failed', 'in_progress', 'incomplete', 'cancelled']),
    model: z.string(),
    output: z.array(OutputItem),
    usage: z
      .looseObject({ input_tokens: z.number().int(), output_tokens: z.number().int(), total_tokens: z.number().int() })
      .nullable(),
    error: z.looseObject({ code: z.string(), message: z.string() }).nullable(),
    previous_response_id: z.string().nullable(),
  })
  .meta({ id: 'ResponseObject' });
export type ResponseObject = z.infer<typeof ResponseObject>;

const tags = ['OpenAI-compatible'] as const;

/** OpenAI's Responses API at `/v1` (transports/openai/responses.ts handles them). */
export const responsesOperations = operations({
  createOpenAIResponse: {
    method: 'post',
    base: '/v1',
    path: '/responses',
    tags,
    summary: 'Create a response (OpenAI Responses API): `model` = an agent slug or a raw provider model; function tools; `previous_response_id` continues the session',
    body: ResponsesRequest,
    response: ResponseObject,
    events: z.string(),
    okDescription: 'A response (`resp_<execution id>`), or with `stream` its SSE events (response.created ... response.completed). Header `x-agent-desk-execution-id`.',
    dialect: 'openai',
    errors: openAIErrors,
  },
  retrieveOpenAIResponse: {
    method: 'get',
    base: '/v1',
    path: '/responses/{response_id}',
    tags,
    summary: 'Retrieve a response (`resp_<execution id>`): its status, output items and usage',
    params: z.object({ response_id: z.string().max(256) }),
    response: ResponseObject,
    dialect: 'openai',
    errors: openAIErrors,
  },
});
