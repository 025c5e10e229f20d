import { z } from 'zod';
import { MAX_MESSAGE_CHARS } from '../kernel/message-limits.js';
import { operations } from './operation.js';
import { OpenAIErrorBody } from './openai.js';

/**
 * ext `POST /v1/embeddings` (CONTRACT.md "Other tools' conventions on /v1"), in OpenAI's shapes:
 * the configured embedder turns texts into vectors. Token arrays parse here so that the handler
 * refuses them by name (this server embeds text).
 */

/** OpenAI's own limits (CONTRACT.md): inputs of one request, tokens of one input, tokens of one request. */
export const MAX_EMBEDDING_INPUTS = 2048;
export const MAX_EMBEDDING_INPUT_TOKENS = 8192;
export const MAX_EMBEDDING_REQUEST_TOKENS = 300_000;

export const EmbeddingRequest = z
  .looseObject({
    model: z.string().min(1).max(256),
    input: z.union([
      z.string().max(MAX_MESSAGE_CHARS),
      z.array(z.string().max(MAX_MESSAGE_CHARS)).max(MAX_EMBEDDING_INPUTS),
      z.array(z.number().int()).max(MAX_MESSAGE_CHARS),
      z.array(z.array(z.number().int()).max(MAX_MESSAGE_CHARS)).max(MAX_EMBEDDING_INPUTS),
    ]),
    /** `float` (default): arrays of numbers; `base64`: little-endian float32 bytes, as OpenAI sends them. */
    encoding_format: z.enum(['float', 'base64']).nullable().optional(),
    /** Accepted only when it is the embedder's own size (vectors are not shortened). */
    dimensions: z.number().int().min(1).nullable().optional(),
    user: z.string().max(256).optional(),
  })
  .meta({ id: 'EmbeddingRequest' });
export type EmbeddingRequest = z.infer<typeof EmbeddingRequest>;

export const Embedding = z.object({ object: z.literal('embedding'), index: z.number().int(), embedding: z.union([z.array(z.number()), z.string()]) });

export const EmbeddingList = z
  .object({
    object: z.literal('list'),
    data: z.array(Embedding),
    model: z.string(),
    usage: z.object({ prompt_tokens: z.number().int(), total_tokens: z.number().int() }),
  })
  .meta({ id: 'EmbeddingList' });
export type EmbeddingList = z.infer<typeof EmbeddingList>;

/** `POST /v1/embeddings` (transports/openai/embeddings.ts handles it). */
export const embeddingOperations = operations({
  createOpenAIEmbeddings: {
    method: 'post',
    base: '/v1',
    path: '/embeddings',
    tags: ['OpenAI-compatible'],
    summary: 'Embeddings with the configured embedder (its model id is listed by /v1/models); `encoding_format` float or base64 (little-endian float32)',
    body: EmbeddingRequest,
    response: EmbeddingList,
    dialect: 'openai',
    errors: {
      400: ['Invalid request (`param` names the field); token arrays are `unsupported_value`; more than 2,048 inputs, 8,192 tokens in one input or 300,000 tokens in all are `invalid_value` on `input`', OpenAIErrorBody],
      401: ['Missing or invalid key', OpenAIErrorBody],
      404: ['Not the embedding model (`model_not_found`)', OpenAIErrorBody],
      502: ['The embedder failed or could not be reached', OpenAIErrorBody],
    },
  },
});
