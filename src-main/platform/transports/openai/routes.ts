import type { TransportDeps } from '../deps.js';
import { createRouter } from '../http/router.js';
import { serveOperations } from '../http/operations.js';
import { agentOpenAIOperations, openaiOperations } from '../../contract/openai.js';
import { agentAsModel, listModels, providerModelSource, resolveModel } from './models.js';
import { modelNotFound } from './errors.js';
import { startChat } from './chat.js';
import { completionResponse, streamResponse } from './respond.js';
import { embeddingRoutes } from './embeddings.js';
import { responsesRoutes } from './responses.js';
import { anthropicRoutes } from '../anthropic/routes.js';

/**
 * The other tools' doors: the OpenAI- and Anthropic-compatible operations (base `/v1`, on a router
 * mounted there), and `/api/agents/{id}/openai/...` with the agent fixed by the path.
 */
export function openaiRoutes(p: TransportDeps) {
  const providers = providerModelSource(p);
  const v1 = createRouter();
  // The embedder's and Anthropic's reshaping of the model listings wrap the model routes: before them.
  embeddingRoutes(v1, p);
  responsesRoutes(v1, p, providers);
  anthropicRoutes(v1, p, providers);
  serveOperations(v1, openaiOperations, {
    listOpenAIModels: async ({ userId }) => ({ object: 'list' as const, data: await listModels(p, userId, providers) }),
    retrieveOpenAIModel: async ({ userId, params: { model } }) => {
      const target = await resolveModel(p, userId, model, providers);
      if (target.kind === 'agent') return agentAsModel(target.agent);
      const listed = (await providers()).find((m) => m.id === model);
      return { id: model, object: 'model' as const, created: 0, owned_by: listed?.owned_by ?? 'provider' };
    },
    createChatCompletion: async ({ body }, c) => {
      const run = await startChat(p, c.get('principal'), body, { providers });
      return body.stream ? streamResponse(run, p.log) : completionResponse(run);
    },
  });

  const agentDoors = createRouter();
  serveOperations(agentDoors, agentOpenAIOperations, {
    listAgentOpenAIModels: ({ userId, params }) => {
      const agent = p.services.agents.get(userId, params.id);
      if (agent.active !== 1) throw modelNotFound(agent.slug);
      return { object: 'list' as const, data: [agentAsModel(agent)] };
    },
    createAgentChatCompletion: async ({ params, body }, c) => {
      const run = await startChat(p, c.get('principal'), body, { providers, fixedAgentId: params.id });
      return body.stream ? streamResponse(run, p.log) : completionResponse(run);
    },
  });

  const r = createRouter();
  r.route('/v1', v1);
  r.route('/api', agentDoors);
  return r;
}
