import type { TransportDeps } from '../deps.js';
import { createRouter } from '../http/router.js';
import { serveDoor, serveOperations } from '../http/operations.js';
import { mark } from '../../kernel/first-token-marks.js';
import { agentOpenAIOperations, openaiOperations } from '../../contract/openai.js';
import { agentAsModel, listModels, providerModelSource, retrieveModel } from '../gateway/models.js';
import { modelNotFound } from '../gateway/errors.js';
import { PlatformError } from '../../kernel/errors.js';
import { startChat } from './chat.js';
import { completionResponse, streamResponse } from './respond.js';
import { embeddingModel, embeddingRoutes } from './embeddings.js';
import { responsesRoutes } from './responses.js';
import { anthropicRoutes } from '../anthropic/routes.js';
import { anthropicModelRoutes } from '../anthropic/models.js';

/**
 * The other tools' doors: the OpenAI- and Anthropic-compatible operations (base `/v1`, on a router
 * mounted there), and `/api/agents/{id}/openai/...` with the agent fixed by the path.
 */
export function openaiRoutes(p: TransportDeps) {
  const providers = providerModelSource(p);
  const v1 = createRouter();
  embeddingRoutes(v1, p);
  responsesRoutes(v1, p, providers);
  anthropicRoutes(v1, p, providers);
  // Anthropic's model operations share OpenAI's paths (told apart by a header): served first.
  anthropicModelRoutes(v1, p, providers);
  serveOperations(v1, openaiOperations, {
    // OpenAI's listing also names the embedder's model (once: a provider may list it too).
    listOpenAIModels: async ({ userId }) => {
      const data = await listModels(p, userId, providers);
      const embedder = embeddingModel(p);
      return { object: 'list' as const, data: data.some((m) => m.id === embedder.id) ? data : [...data, embedder] };
    },
    retrieveOpenAIModel: async ({ userId, params: { model } }) => {
      try {
        return await retrieveModel(p, userId, model, providers);
      } catch (err) {
        // Not an agent or a chat model (those win a name clash): the embedding model, if it is that.
        const embedder = embeddingModel(p);
        if (err instanceof PlatformError && err.status === 404 && model === embedder.id) return embedder;
        throw err;
      }
    },
    createChatCompletion: async ({ body }, c) => {
      mark('door');
      const run = await startChat(p, c.get('principal'), body, { providers });
      return body.stream ? streamResponse(run, p.log, c.env?.incoming?.socket) : completionResponse(run);
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
      return body.stream ? streamResponse(run, p.log, c.env?.incoming?.socket) : completionResponse(run);
    },
  });

  // Paths under the doors that no operation serves answer 404/405 in the door's dialect.
  serveDoor(v1, '/messages/*', 'anthropic');
  serveDoor(v1, '/*', 'openai');
  serveDoor(agentDoors, '/agents/:id/openai/*', 'openai');

  const r = createRouter();
  r.route('/v1', v1);
  r.route('/api', agentDoors);
  return r;
}
