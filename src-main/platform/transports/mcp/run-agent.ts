import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Agent } from '../../contract/agents.js';
import { isFinished, parseExecuteBody } from '../../contract/executions.js';
import { parseId } from '../../kernel/context.js';
import { NotFoundError } from '../../kernel/errors.js';
import { answersWithMessage } from '../gateway/gateway.js';
import { errorResult, textResult } from './results.js';
import type { ToolContext } from './tools.js';

/** How long one tool call waits for the answer; a longer run keeps going and is read by its id. */
export const RUN_WAIT_MS = 10 * 60_000;

function findAgent(ctx: ToolContext, ref: string): Agent {
  const { agents } = ctx.platform.services;
  const userId = ctx.principal.userId;
  if (parseId(ref)) return agents.get(userId, ref);
  const agent = agents.findBySlug(userId, ref.trim());
  if (!agent) throw new NotFoundError('Agent not found');
  return agent;
}

/**
 * `run_agent`: one message to an agent, answered through the execution engine (the same path as
 * `POST /api/agents/{id}/execute` and `/v1/chat/completions`: context, credits, storage, webhooks).
 */
export function registerRunAgent(server: McpServer, ctx: ToolContext): void {
  const { executions } = ctx.platform.services;
  const userId = ctx.principal.userId;
  server.registerTool(
    'run_agent',
    {
      title: 'Run an agent',
      description:
        "Sends a message to an Agent Desk agent and returns its answer. The agent uses its instructions, the user's memories and its files. See list_agents for ids, slugs and the answers an agent takes.",
      inputSchema: {
        agent: z.string().min(1).max(200).describe('The agent id or slug.'),
        message: z.string().min(1).max(200_000).describe('What to ask or tell the agent.'),
        answers: z.record(z.string(), z.unknown()).optional().describe('Answers to the agent\'s questions (e.g. {"length": "short"}); optional for chat agents.'),
        model: z.string().min(1).max(256).optional().describe('Run with this provider model instead of the agent\'s or the default one.'),
        file_ids: z.array(z.number().int().min(1)).max(100).optional().describe('Files to attach (see list_files).'),
      },
      annotations: { openWorldHint: true },
    },
    async (a: { agent: string; message: string; answers?: Record<string, unknown>; model?: string; file_ids?: number[] }, extra: { signal: AbortSignal }) => {
      try {
        const agent = findAgent(ctx, a.agent);
        const body = { messages: [{ role: 'user', content: a.message }], answers: answersWithMessage(agent, a.answers, a.message), ...(a.file_ids ? { file_ids: a.file_ids } : {}) };
        const { execution } = await executions.start(ctx.principal, agent, parseExecuteBody(body), { steeringOptional: true, overrides: a.model ? { model: a.model } : {} });
        // A client that cancels the call (or goes away) stops the wait; the run itself goes on.
        const done = await executions.waitFor(userId, execution.id, RUN_WAIT_MS, extra.signal);
        const info = { execution_id: done.id, agent: agent.slug, status: done.status, credits: done.credits };
        if (done.status === 'succeeded') return textResult(done.output, { ...info, output: done.output });
        if (!isFinished(done.status)) {
          return textResult(`The agent is still working (execution ${done.id}). Read it later with get_agent_response.`, { ...info, output: done.output });
        }
        const why = done.error?.message ?? `The execution ended ${done.status}.`;
        return { isError: true, content: [{ type: 'text', text: `${why} (execution ${done.id})` }], structuredContent: { ...info, error: done.error } };
      } catch (err) {
        return errorResult(err, ctx.platform.log, 'run_agent');
      }
    },
  );

  server.registerTool(
    'get_agent_response',
    {
      title: 'Get an agent response',
      description: 'Reads one execution (an agent response) by id: its status, output so far, error and credits.',
      inputSchema: { id: z.number().int().min(1).describe('The execution id (run_agent returns it).') },
      annotations: { readOnlyHint: true },
    },
    async (a: { id: number }) => {
      try {
        const e = executions.get(userId, a.id);
        return textResult(e.output || `(no output yet; status ${e.status})`, { execution_id: e.id, status: e.status, output: e.output, error: e.error, credits: e.credits });
      } catch (err) {
        return errorResult(err, ctx.platform.log, 'get_agent_response');
      }
    },
  );
}
