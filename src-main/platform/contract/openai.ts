import { z } from 'zod';
import { MAX_MESSAGE_CHARS } from '../kernel/message-limits.js';
import { operations } from './operation.js';

/**
 * The OpenAI-compatible surface (`/v1`): request and response shapes as OpenAI's Chat Completions
 * API defines them. Requests are loose objects: clients send many fields we do not use (`user`,
 * `seed`, `logit_bias`...), and refusing them would break those clients; fields whose meaning we
 * cannot honour are refused by the service with a clear 400 instead.
 */

/** `{"error": {message, type, param, code}}`: every error on `/v1`. */
export const OpenAIErrorBody = z
  .object({
    error: z.object({ message: z.string(), type: z.string(), param: z.string().nullable(), code: z.string().nullable() }),
  })
  .meta({ id: 'OpenAIError' });
export type OpenAIErrorBody = z.infer<typeof OpenAIErrorBody>;

const TextPart = z.looseObject({ type: z.literal('text'), text: z.string() });
/** Other part kinds (images, audio, files) parse here so the service can refuse them by name. */
const OtherPart = z.looseObject({ type: z.string() });
/** Over the message cap, refused at validation (400 naming the message) before anything is stored. */
export const ChatContent = z.union([
  z.string().max(MAX_MESSAGE_CHARS),
  z
    .array(z.union([TextPart, OtherPart]))
    .max(1000)
    .superRefine((parts, ctx) => {
      const chars = parts.reduce((n, p) => n + (typeof p.text === 'string' ? p.text.length : 0), 0);
      if (chars > MAX_MESSAGE_CHARS) ctx.addIssue({ code: 'too_big', origin: 'string', maximum: MAX_MESSAGE_CHARS, inclusive: true, input: parts, message: '' });
    }),
]);

/** A function call as OpenAI writes it (`arguments`: JSON text). */
export const ToolCallShape = z.object({
  id: z.string().min(1).max(256),
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1).max(256), arguments: z.string().max(MAX_MESSAGE_CHARS) }),
});

export const ChatMessage = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: ChatContent.nullable().optional(),
  name: z.string().max(256).optional(),
  /** assistant messages: the calls the model made, sent back with the conversation */
  tool_calls: z.array(ToolCallShape).max(128).optional(),
  /** tool messages: the call this result answers */
  tool_call_id: z.string().min(1).max(256).optional(),
});

/** A client function the model may call (`type: "function"`). */
export const FunctionTool = z.looseObject({
  type: z.string(),
  function: z
    .looseObject({ name: z.string().min(1).max(256), description: z.string().max(100_000).optional(), parameters: z.record(z.string(), z.unknown()).optional() })
    .optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

const Stop = z.union([z.string().max(1000), z.array(z.string().max(1000)).max(4)]).nullable();

/** `POST /api/agents/{id}/openai/chat/completions`: the agent is the path's, so `model` is optional. */
export const AgentChatCompletionRequest = z
  .looseObject({
    /** The agent's slug, or a raw provider model to run the agent with. */
    model: z.string().min(1).max(256).optional(),
    messages: z.array(ChatMessage).min(1).max(10000),
    stream: z.boolean().nullable().optional(),
    stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().min(0).max(1).nullable().optional(),
    max_tokens: z.number().int().min(1).max(1_000_000).nullable().optional(),
    max_completion_tokens: z.number().int().min(1).max(1_000_000).nullable().optional(),
    stop: Stop.optional(),
    n: z.number().int().min(1).max(128).nullable().optional(),
    tools: z.array(FunctionTool).max(128).nullable().optional(),
    tool_choice: z.unknown().optional(),
    parallel_tool_calls: z.boolean().nullable().optional(),
    /** ext: answers to the agent's questions (e.g. `tools`), as `POST /api/agents/{id}/execute` takes them. */
    answers: z.record(z.string(), z.unknown()).optional(),
    /** ext: file ids to attach, as on execute. */
    file_ids: z.array(z.number().int().min(1)).max(100).optional(),
  })
  .meta({ id: 'AgentChatCompletionRequest' });
/** Either request, as the service takes it (`model` checked there for /v1). */
export type ChatCompletionRequest = z.infer<typeof AgentChatCompletionRequest>;

/** `POST /v1/chat/completions`: `model` = an agent slug, or a raw provider model (run by the default chat agent). */
export const ChatCompletionRequest = AgentChatCompletionRequest.extend({ model: z.string().min(1).max(256) }).meta({ id: 'ChatCompletionRequest' });

export const FinishReason = z.enum(['stop', 'length', 'tool_calls', 'content_filter']);
export type FinishReason = z.infer<typeof FinishReason>;

export const Usage = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() });
export type Usage = z.infer<typeof Usage>;

export const ChatCompletion = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        message: z.object({ role: z.literal('assistant'), content: z.string().nullable(), refusal: z.null(), tool_calls: z.array(ToolCallShape).optional() }),
        logprobs: z.null(),
        finish_reason: FinishReason,
      }),
    ),
    usage: Usage,
  })
  .meta({ id: 'ChatCompletion' });
export type ChatCompletion = z.infer<typeof ChatCompletion>;

export const ChatCompletionChunk = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion.chunk'),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        delta: z.object({
          role: z.literal('assistant').optional(),
          content: z.string().optional(),
          refusal: z.null().optional(),
          tool_calls: z
            .array(
              z.object({
                index: z.number().int(),
                id: z.string().optional(),
                type: z.literal('function').optional(),
                function: z.object({ name: z.string().optional(), arguments: z.string() }),
              }),
            )
            .optional(),
        }),
        logprobs: z.null(),
        finish_reason: FinishReason.nullable(),
      }),
    ),
    usage: Usage.nullable().optional(),
  })
  .meta({ id: 'ChatCompletionChunk' });
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunk>;

export const OpenAIModel = z
  .object({ id: z.string(), object: z.literal('model'), created: z.number().int(), owned_by: z.string() })
  .meta({ id: 'OpenAIModel' });
export type OpenAIModel = z.infer<typeof OpenAIModel>;
export const OpenAIModelList = z.object({ object: z.literal('list'), data: z.array(OpenAIModel) }).meta({ id: 'OpenAIModelList' });

/** The errors every OpenAI door documents, in OpenAI's shape. */
export const openAIErrors = {
  400: ['Invalid request (`invalid_request_error`, `param` names the field)', OpenAIErrorBody],
  401: ['Missing or invalid key (`invalid_api_key`)', OpenAIErrorBody],
  404: ['Unknown model (`model_not_found`) or agent', OpenAIErrorBody],
} as const;

const tags = ['OpenAI-compatible'] as const;
const chatAnswer = '`chat.completion`, or with `stream` an SSE stream of `chat.completion.chunk` ending `data: [DONE]`. Header `x-agent-desk-execution-id`; `id` = `chatcmpl-<execution id>`.';

/** The OpenAI-compatible API at `/v1` (transports/openai/routes.ts handles them). */
export const openaiOperations = operations({
  listOpenAIModels: {
    method: 'get',
    base: '/v1',
    path: '/models',
    tags,
    summary: 'List models: every agent (id = its slug, owned_by `agent-desk`), then the raw models of the configured providers',
    response: OpenAIModelList,
    dialect: 'openai',
    errors: { 401: openAIErrors[401] },
  },
  retrieveOpenAIModel: {
    method: 'get',
    base: '/v1',
    path: '/models/{model}',
    tags,
    summary: 'Retrieve a model (an agent slug or a raw provider model)',
    params: z.object({ model: z.string() }),
    response: OpenAIModel,
    dialect: 'openai',
    errors: openAIErrors,
  },
  createChatCompletion: {
    method: 'post',
    base: '/v1',
    path: '/chat/completions',
    tags,
    summary: 'Chat completion: `model` = an agent slug runs that agent; a raw provider model runs the `chat` agent with it. System messages add to the instructions.',
    body: ChatCompletionRequest,
    response: ChatCompletion,
    events: z.string(),
    okDescription: chatAnswer,
    dialect: 'openai',
    errors: openAIErrors,
  },
});

const AgentPath = z.object({ id: z.string() });

/** The agent-fixed OpenAI base URL, `/api/agents/{id}/openai`: OpenAI's shapes and errors under /api. */
export const agentOpenAIOperations = operations({
  listAgentOpenAIModels: {
    method: 'get',
    path: '/agents/{id}/openai/models',
    tags,
    summary: 'The one model of the agent-fixed OpenAI base URL: the agent itself',
    params: AgentPath,
    response: OpenAIModelList,
    dialect: 'openai',
    errors: openAIErrors,
  },
  createAgentChatCompletion: {
    method: 'post',
    path: '/agents/{id}/openai/chat/completions',
    tags,
    summary: 'Chat completion with the agent fixed by the path (`model` optional); base URL for OpenAI clients: /api/agents/{id}/openai',
    params: AgentPath,
    body: AgentChatCompletionRequest,
    response: ChatCompletion,
    events: z.string(),
    okDescription: chatAnswer,
    dialect: 'openai',
    errors: openAIErrors,
  },
});
