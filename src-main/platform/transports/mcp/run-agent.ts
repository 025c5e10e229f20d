import type { Agent } from '../../contract/agents.js';
import { isFinished, parseExecuteBody } from '../../contract/executions.js';
import { RunAgentInput } from '../../contract/mcp.js';
import { laravelErrors } from '../../contract/messages.js';
import { parseId } from '../../kernel/context.js';
import { NotFoundError, ValidationError } from '../../kernel/errors.js';
import { answersWithMessage } from '../gateway/gateway.js';
import { declaredInputSchema } from './input-schema.js';
import { textResult } from './results.js';
import type { Tool, ToolContext } from './tools.js';

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

const inputSchema = declaredInputSchema(RunAgentInput);

/**
 * `run_agent`: one message to an agent, answered through the execution engine (the same path as
 * `POST /api/agents/{id}/execute` and `/v1/chat/completions`: context, credits, storage, webhooks).
 * Not an operation's tool: it finds the agent by id or slug, starts with the gateway's options (the
 * message fills a text agent's task, a model override) and waits for the end longer than an HTTP
 * request waits (`wait_execution` holds 100 s), giving up when the client cancels the call. Its input
 * is declared in the contract (contract/mcp.ts) and checked there, in the contract's sentences.
 */
export function runAgentTool(ctx: ToolContext): Tool {
  const { executions } = ctx.platform.services;
  const userId = ctx.principal.userId;
  return {
    name: 'run_agent',
    title: 'Run an agent',
    description:
      "Sends a message to an Agent Desk agent and returns its answer. The agent uses its instructions, the user's memories and its files. See list_agents for ids, slugs and the answers an agent takes.",
    inputSchema,
    annotations: { openWorldHint: true },
    async call(args, signal) {
      const parsed = RunAgentInput.safeParse(args);
      if (!parsed.success) throw new ValidationError(laravelErrors(parsed.error.issues, args));
      const a = parsed.data;
      const agent = findAgent(ctx, a.agent);
      const body = { messages: [{ role: 'user', content: a.message }], answers: answersWithMessage(agent, a.answers, a.message), ...(a.file_ids ? { file_ids: a.file_ids } : {}) };
      const { execution } = await executions.start(ctx.principal, agent, parseExecuteBody(body), { steeringOptional: true, overrides: a.model ? { model: a.model } : {} });
      // A client that cancels the call (or goes away) stops the wait; the run itself goes on.
      const done = await executions.waitFor(userId, execution.id, RUN_WAIT_MS, signal);
      const info = { execution_id: done.id, agent: agent.slug, status: done.status, credits: done.credits };
      if (done.status === 'succeeded') return textResult(done.output, { ...info, output: done.output });
      if (!isFinished(done.status)) {
        return textResult(`The agent is still working (execution ${done.id}). Read it later with get_agent_response.`, { ...info, output: done.output });
      }
      const why = done.error?.message ?? `The execution ended ${done.status}.`;
      return { isError: true, content: [{ type: 'text', text: `${why} (execution ${done.id})` }], structuredContent: { ...info, error: done.error } };
    },
  };
}
