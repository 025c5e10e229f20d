import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/env.js';
import type { TransportDeps } from '../deps.js';
import { embeddingOperations, MAX_EMBEDDING_INPUT_TOKENS, MAX_EMBEDDING_REQUEST_TOKENS, type EmbeddingRequest } from '../../contract/embeddings.js';
import type { OpenAIModel } from '../../contract/openai.js';
import { serveOperations } from '../http/operations.js';
import { EmbedderError } from '../../ingest/embed/types.js';
import { EXACT_MAX_CHARS, tokenCounter } from '../../engine/tokens.js';
import { nextTurn } from '../../kernel/turns.js';
import { OpenAIError, modelNotFound } from '../gateway/errors.js';

/** `owned_by` of the embedding model in `/v1/models`: it embeds, it does not chat. */
export const EMBEDDINGS_OWNER = 'agent-desk-embeddings';

/** The configured embedder's model as `/v1/models` lists it. */
export function embeddingModel(p: TransportDeps): OpenAIModel {
  return { id: p.services.retrieval.current().model, object: 'model', created: 0, owned_by: EMBEDDINGS_OWNER };
}

/** OpenAI's base64 encoding: the vector's float32 values, little-endian, as bytes. */
export function float32Base64(v: Float32Array): string {
  const buf = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i++) buf.writeFloatLE(v[i], i * 4);
  return buf.toString('base64');
}

const badInput = (message: string) => new OpenAIError(400, message, 'invalid_request_error', 'invalid_value', 'input');

/** The texts of a request; token arrays (which this server cannot read back into text) are refused by name. */
function textsOf(input: EmbeddingRequest['input']): string[] {
  const list: unknown[] = Array.isArray(input) ? input : [input];
  if (!list.length) throw badInput('`input` must hold at least one text.');
  if (list.some((x) => typeof x !== 'string')) {
    throw new OpenAIError(400, 'Token arrays are not supported as `input`: send the text itself (a string or an array of strings).', 'invalid_request_error', 'unsupported_value', 'input');
  }
  const texts = list as string[];
  const empty = texts.findIndex((t) => t.length === 0);
  if (empty >= 0) throw badInput(Array.isArray(input) ? `\`input[${empty}]\` is empty: every text must hold at least one character.` : '`input` is empty: send at least one character.');
  return texts;
}

/**
 * Tokens of the inputs (o200k, as executions count them), checked against OpenAI's limits as they
 * are counted: a text over the per-input limit, or a request over the total, is a 400 naming
 * `input` before anything is embedded. Each count is bounded (engine/tokens.ts); the loop yields
 * every few dozen thousand characters so a large request does not hold it.
 */
async function countTokens(texts: string[], signal: AbortSignal): Promise<number> {
  const count = await tokenCounter();
  let n = 0;
  let sinceTurn = 0;
  for (let i = 0; i < texts.length; i++) {
    if (sinceTurn > 32_768) {
      await nextTurn();
      signal.throwIfAborted();
      sinceTurn = 0;
    }
    sinceTurn += Math.min(texts[i].length, EXACT_MAX_CHARS);
    const tokens = count(texts[i]);
    const where = texts.length > 1 ? `\`input[${i}]\`` : '`input`';
    if (tokens > MAX_EMBEDDING_INPUT_TOKENS) {
      throw badInput(`${where} holds about ${tokens.toLocaleString('en-US')} tokens; at most ${MAX_EMBEDDING_INPUT_TOKENS.toLocaleString('en-US')} tokens per input can be embedded.`);
    }
    n += tokens;
    if (n > MAX_EMBEDDING_REQUEST_TOKENS) {
      throw badInput(`\`input\` holds more than ${MAX_EMBEDDING_REQUEST_TOKENS.toLocaleString('en-US')} tokens in all (the limit per request); send the texts in several requests.`);
    }
  }
  return n;
}

/** A failure after the client left is only that: nobody reads the answer, nothing to log as a fault. */
const gone =
  (signal: AbortSignal) =>
  (err: unknown): never => {
    if (signal.aborted) throw new OpenAIError(499, 'The client closed the request before its embeddings were ready.', 'invalid_request_error', 'client_closed');
    throw err;
  };

/** An embedder that is down or failing is the upstream's fault (502/503), never a 500. */
function upstream(err: unknown): never {
  if (err instanceof EmbedderError) {
    const status = err.code === 'embedder_unavailable' ? 503 : 502;
    throw new OpenAIError(status, `The embedding model could not answer: ${err.message} Check Settings → Retrieval.`, 'server_error', err.code);
  }
  throw err;
}

/**
 * `POST /v1/embeddings` with the embedder that retrieval uses (Settings → Retrieval: the built-in
 * one by default, or a GGUF, Ollama or OpenAI-compatible model). Its model is named by OpenAI's
 * `/v1/models` operations (routes.ts).
 */
export function embeddingRoutes(r: OpenAPIHono<AppEnv>, p: TransportDeps): void {
  serveOperations(r, embeddingOperations, {
    createOpenAIEmbeddings: async ({ body }, c) => {
      const { embedder, model } = p.services.retrieval.current();
      if (body.model !== model) throw modelNotFound(body.model);
      const texts = textsOf(body.input);
      // The client leaving (its connection closed) ends the counting and the embedding.
      const signal = c.req.raw.signal;
      const tokens = await countTokens(texts, signal).catch(gone(signal));
      const vectors = await embedder.embed(texts, signal).catch(gone(signal)).catch(upstream);
      const size = vectors[0]?.length ?? 0;
      if (body.dimensions != null && body.dimensions !== size) {
        throw new OpenAIError(400, `This embedding model makes vectors of ${size} dimensions; \`dimensions\` ${body.dimensions} is not supported.`, 'invalid_request_error', 'unsupported_value', 'dimensions');
      }
      const base64 = body.encoding_format === 'base64';
      return {
        object: 'list' as const,
        data: vectors.map((v, index) => ({ object: 'embedding' as const, index, embedding: base64 ? float32Base64(v) : Array.from(v) })),
        model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      };
    },
  });
}
