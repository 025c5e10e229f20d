import { z } from 'zod';
import { MAX_MESSAGE_CHARS } from '../kernel/message-limits.js';

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
