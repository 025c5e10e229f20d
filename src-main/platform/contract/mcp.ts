import { z } from 'zod';

/**
 * The input of `run_agent`, the one MCP tool that is not an operation: it finds an agent by id or
 * slug, starts an execution and waits for its end (longer than an HTTP request waits), so it is
 * declared here and transports/mcp builds its JSON Schema and its validation from it, as it does
 * for the tools generated from operations.
 */
export const RunAgentInput = z.object({
  agent: z.string().min(1).max(200).describe('The agent id or slug.'),
  message: z.string().min(1).max(200_000).describe('What to ask or tell the agent.'),
  answers: z.record(z.string(), z.unknown()).optional().describe('Answers to the agent\'s questions (e.g. {"length": "short"}); optional for chat agents.'),
  model: z.string().min(1).max(256).optional().describe("Run with this provider model instead of the agent's or the default one."),
  file_ids: z.array(z.number().int().min(1)).max(100).optional().describe('Files to attach (see list_files).'),
});
export type RunAgentInput = z.infer<typeof RunAgentInput>;
