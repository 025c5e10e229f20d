import { z } from 'zod';
import { MAX_MESSAGE_CHARS } from '../kernel/message-limits.js';
import { operations } from './operation.js';

/**
 * `POST /v1/messages` (Anthropic's Messages API) as far as Agent Desk serves it: text, image,
 * tool_use and tool_result blocks, system, tools, streaming. Loose objects: clients send fields we
 * do not use (`metadata`, `cache_control`, `thinking`...); blocks we cannot honour are refused by name.
 */

/** `{"type": "error", "error": {type, message}}`: every error on /v1/messages. */
export const AnthropicErrorBody = z
  .object({ type: z.literal('error'), error: z.object({ type: z.string(), message: z.string() }) })
  .meta({ id: 'AnthropicError' });
export type AnthropicErrorBody = z.infer<typeof AnthropicErrorBody>;

export const AnthropicBlock = z.looseObject({ type: z.string().max(64) });

const Content = z.union([z.string().max(MAX_MESSAGE_CHARS), z.array(AnthropicBlock).max(1000)]);

export const AnthropicMessage = z.looseObject({ role: z.enum(['user', 'assistant']), content: Content });

export const AnthropicTool = z.looseObject({
  type: z.string().max(64).optional(),
  name: z.string().max(256),
  description: z.string().max(100_000).optional(),
  input_schema: z.record(z.string(), z.unknown()).optional(),
});

export const AnthropicMessagesRequest = z
  .looseObject({
    /** an agent's slug, or a raw provider model (run by the default chat agent) */
    model: z.string().min(1).max(256),
    max_tokens: z.number().int().min(1).max(1_000_000),
    messages: z.array(AnthropicMessage).min(1).max(10000),
    system: z.union([z.string().max(MAX_MESSAGE_CHARS), z.array(AnthropicBlock).max(1000)]).optional(),
    stop_sequences: z.array(z.string().max(1000)).max(16).optional(),
    temperature: z.number().min(0).max(1).optional(),
    top_p: z.number().min(0).max(1).optional(),
    top_k: z.number().int().min(0).optional(),
    stream: z.boolean().optional(),
    tools: z.array(AnthropicTool).max(128).optional(),
    tool_choice: z.looseObject({ type: z.string().max(32), name: z.string().max(256).optional(), disable_parallel_tool_use: z.boolean().optional() }).optional(),
    /** ext: answers to the agent's questions, as on execute */
    answers: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'AnthropicMessagesRequest' });
export type AnthropicMessagesRequest = z.infer<typeof AnthropicMessagesRequest>;

/** `POST /v1/messages/count_tokens`: the same request without `max_tokens`. */
export const AnthropicCountRequest = AnthropicMessagesRequest.omit({ max_tokens: true, stream: true }).meta({ id: 'AnthropicCountRequest' });
export type AnthropicCountRequest = z.infer<typeof AnthropicCountRequest>;

export const AnthropicMessageResponse = z
  .looseObject({
    id: z.string(),
    type: z.literal('message'),
    role: z.literal('assistant'),
    model: z.string(),
    content: z.array(AnthropicBlock),
    stop_reason: z.enum(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use']).nullable(),
    stop_sequence: z.string().nullable(),
    usage: z.looseObject({ input_tokens: z.number().int(), output_tokens: z.number().int() }),
  })
  .meta({ id: 'AnthropicMessage' });

export const AnthropicTokenCount = z.object({ input_tokens: z.number().int() });

/** A model as Anthropic's `GET /v1/models` lists it. */
export const AnthropicModel = z
  .object({ type: z.literal('model'), id: z.string(), display_name: z.string(), created_at: z.string() })
  .meta({ id: 'AnthropicModel' });
export type AnthropicModel = z.infer<typeof AnthropicModel>;
export const AnthropicModelList = z
  .object({ data: z.array(AnthropicModel), has_more: z.boolean(), first_id: z.string().nullable(), last_id: z.string().nullable() })
  .meta({ id: 'AnthropicModelList' });

const tags = ['Anthropic-compatible'] as const;
const anthropicErrors = {
  400: ['Invalid request (`invalid_request_error`)', AnthropicErrorBody],
  401: ['Missing or invalid key (`authentication_error`): send `x-api-key` or `Authorization: Bearer`', AnthropicErrorBody],
  404: ['Unknown model (`not_found_error`)', AnthropicErrorBody],
} as const;

/** Anthropic's Messages API at `/v1` (transports/anthropic/routes.ts handles them). */
export const anthropicOperations = operations({
  createAnthropicMessage: {
    method: 'post',
    base: '/v1',
    path: '/messages',
    tags,
    summary: 'Create a message (Anthropic Messages API): `model` = an agent slug or a raw provider model; custom tools come back as tool_use blocks',
    body: AnthropicMessagesRequest,
    response: AnthropicMessageResponse,
    events: z.string(),
    okDescription: 'A message (`msg_<execution id>`), or with `stream` its SSE events (message_start ... message_stop). Header `x-agent-desk-execution-id`.',
    dialect: 'anthropic',
    errors: anthropicErrors,
  },
  countAnthropicTokens: {
    method: 'post',
    base: '/v1',
    path: '/messages/count_tokens',
    tags,
    summary: "Count a message request's input tokens (an estimate with the o200k tokenizer)",
    body: AnthropicCountRequest,
    response: AnthropicTokenCount,
    dialect: 'anthropic',
    errors: anthropicErrors,
  },
});

/**
 * Anthropic's model listing at `/v1/models`: the same path as OpenAI's, told apart by the
 * `anthropic-version` header Anthropic's clients send (transports/anthropic/models.ts handles them).
 */
export const anthropicModelOperations = operations({
  listAnthropicModels: {
    method: 'get',
    base: '/v1',
    path: '/models',
    onlyWithHeader: 'anthropic-version',
    tags,
    summary: "the same agents and raw models in Anthropic's list shape, without the embedding model (Anthropic's API has no embeddings)",
    response: AnthropicModelList,
    dialect: 'anthropic',
    errors: { 401: anthropicErrors[401] },
  },
  retrieveAnthropicModel: {
    method: 'get',
    base: '/v1',
    path: '/models/{model}',
    onlyWithHeader: 'anthropic-version',
    tags,
    summary: "the model in Anthropic's shape",
    params: z.object({ model: z.string() }),
    response: AnthropicModel,
    dialect: 'anthropic',
    errors: anthropicErrors,
  },
});
