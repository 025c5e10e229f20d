import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import type { TransportDeps } from '../deps.js';
import { createRouter } from '../http/router.js';
import { AgentChatCompletionRequest, ChatCompletion, ChatCompletionRequest, OpenAIErrorBody, OpenAIModel, OpenAIModelList } from '../../contract/openai.js';
import { agentAsModel, listModels, providerModelSource, resolveModel } from './models.js';
import { modelNotFound } from './errors.js';
import { startChat } from './chat.js';
import { completionResponse, streamResponse } from './respond.js';
import { embeddingRoutes } from './embeddings.js';
import { responsesRoutes } from './responses.js';
import { anthropicRoutes } from '../anthropic/routes.js';

const tags = ['OpenAI-compatible'];
const json = <T>(schema: T, description: string) => ({ content: { 'application/json': { schema } }, description });
export const openAIErrors = {
  400: json(OpenAIErrorBody, 'Invalid request (`invalid_request_error`, `param` names the field)'),
  401: json(OpenAIErrorBody, 'Missing or invalid key (`invalid_api_key`)'),
  404: json(OpenAIErrorBody, 'Unknown model (`model_not_found`) or agent'),
} as const;

/** The OpenAI-compatible API: `/v1/...`, and `/api/agents/{id}/openai/...` with the agent fixed by the path. */
export function openaiRoutes(p: TransportDeps) {
  const r = createRouter();
  const providers = providerModelSource(p);
  embeddingRoutes(r, p);
  responsesRoutes(r, p, providers);
  anthropicRoutes(r, p, providers);

  r.openapi(
    createRoute({
      method: 'get',
      path: '/v1/models',
      tags,
      summary: 'List models: every agent (id = its slug, owned_by `agent-desk`), then the raw models of the configured providers',
      responses: { 200: json(OpenAIModelList, 'OK'), 401: openAIErrors[401] },
    }),
    async (c) => c.json({ object: 'list' as const, data: await listModels(p, c.get('principal').userId, providers) }, 200),
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/v1/models/{model}',
      tags,
      summary: 'Retrieve a model (an agent slug or a raw provider model)',
      request: { params: z.object({ model: z.string() }) },
      responses: { 200: json(OpenAIModel, 'OK'), ...openAIErrors },
    }),
    async (c) => {
      const { model } = c.req.valid('param');
      const target = await resolveModel(p, c.get('principal').userId, model, providers);
      if (target.kind === 'agent') return c.json(agentAsModel(target.agent), 200);
      const listed = (await providers()).find((m) => m.id === model);
      return c.json({ id: model, object: 'model' as const, created: 0, owned_by: listed?.owned_by ?? 'provider' }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/api/agents/{id}/openai/models',
      tags,
      summary: 'The one model of the agent-fixed OpenAI base URL: the agent itself',
      request: { params: z.object({ id: z.string() }) },
      responses: { 200: json(OpenAIModelList, 'OK'), ...openAIErrors },
    }),
    (c) => {
      const agent = p.services.agents.get(c.get('principal').userId, c.req.valid('param').id);
      if (agent.active !== 1) throw modelNotFound(agent.slug);
      return c.json({ object: 'list' as const, data: [agentAsModel(agent)] }, 200);
    },
  );

  const chatResponses = {
    200: {
      content: { 'application/json': { schema: ChatCompletion }, 'text/event-stream': { schema: z.string() } },
      description: '`chat.completion`, or with `stream` an SSE stream of `chat.completion.chunk` ending `data: [DONE]`. Header `x-agent-desk-execution-id`; `id` = `chatcmpl-<execution id>`.',
    },
    ...openAIErrors,
  };
  const bodyOf = <T>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });

  r.openapi(
    createRoute({
      method: 'post',
      path: '/v1/chat/completions',
      tags,
      summary: 'Chat completion: `model` = an agent slug runs that agent; a raw provider model runs the `chat` agent with it. System messages add to the instructions.',
      request: bodyOf(ChatCompletionRequest),
      responses: chatResponses,
    }),
    async (c) => {
      const body = c.req.valid('json');
      const run = await startChat(p, c.get('principal'), body, { providers });
      return body.stream ? streamResponse(run, p.log) : completionResponse(run);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/api/agents/{id}/openai/chat/completions',
      tags,
      summary: 'Chat completion with the agent fixed by the path (`model` optional); base URL for OpenAI clients: /api/agents/{id}/openai',
      request: { params: z.object({ id: z.string() }), ...bodyOf(AgentChatCompletionRequest) },
      responses: chatResponses,
    }),
    async (c) => {
      const body = c.req.valid('json');
      const run = await startChat(p, c.get('principal'), body, { providers, fixedAgentId: c.req.valid('param').id });
      return body.stream ? streamResponse(run, p.log) : completionResponse(run);
    },
  );

  return r;
}
