import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/env.js';
import type { TransportDeps } from '../deps.js';
import { anthropicModelOperations, type AnthropicModel } from '../../contract/anthropic-messages.js';
import type { OpenAIModel } from '../../contract/openai.js';
import { serveOperations } from '../http/operations.js';
import { listModels, retrieveModel, type ProviderModelSource } from '../gateway/models.js';

/** A model of `/v1/models` as Anthropic lists it. */
const anthropicModel = (m: OpenAIModel): AnthropicModel => ({ type: 'model', id: m.id, display_name: m.id, created_at: new Date(m.created * 1000).toISOString() });

/**
 * `GET /v1/models` and `/v1/models/{model}` asked by an Anthropic client (it sends
 * `anthropic-version`): the agents and raw models OpenAI's listing has, in Anthropic's shapes and
 * errors. Serve on the /v1 router before the OpenAI model operations (they answer the others).
 */
export function anthropicModelRoutes(r: OpenAPIHono<AppEnv>, p: TransportDeps, providers: ProviderModelSource): void {
  serveOperations(r, anthropicModelOperations, {
    listAnthropicModels: async ({ userId }) => {
      const data = (await listModels(p, userId, providers)).map(anthropicModel);
      return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
    },
    retrieveAnthropicModel: async ({ userId, params: { model } }) => anthropicModel(await retrieveModel(p, userId, model, providers)),
  });
}
