import { WAIT_MS, type ExecutionsService } from './service.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations, type Handler } from '../../transports/http/operations.js';
import { executionOperations, parseExecuteBody } from '../../contract/executions.js';
import { executePart } from './sessions-compare.js';
import { sessionOperations } from '../../contract/sessions.js';
import { idFrame, sseResponse } from '../../transports/http/sse.js';
import { shapeB } from '../../transports/http/pagination.js';

/** /api/agents/{id}/execute, /api/agent-responses and /api/sessions (with the hosted clients' older paths). */
export function executionRoutes({ executions }: { executions: ExecutionsService }) {
  const r = createRouter();

  // Both execute paths (the hosted platform's older `/templates/{id}/execute` too) run this.
  const execute: Handler<typeof executionOperations.executeAgent> = async ({ params, query, body }, c) => {
    const principal = c.get('principal');
    const { execution, events } = await executions.start(principal, params.id, body);
    if (body.stream ?? query.stream ?? false) return sseResponse(events);
    const wait = body.wait ?? query.wait_execution ?? query.waitExecution ?? false;
    const result = wait ? await executions.waitFor(principal.userId, execution.id, WAIT_MS, c.req.raw.signal) : execution;
    return { template_id: String(execution.template_id), responses: [result] };
  };

  serveOperations(r, executionOperations, {
    executeAgent: execute,
    executeTemplate: (input, c) => execute(input, c),
    listAgentResponses: ({ userId, query }, c) => shapeB(c, executions.list(userId, query)),
    getAgentResponse: ({ userId, params }) => executions.get(userId, params.id),
    getTemplateResponse: ({ userId, params }) => executions.get(userId, params.id),
    // Re-attach: every event with its `id:` line; `Last-Event-ID` resumes after the one a client holds.
    streamAgentResponse: ({ userId, params }, c) => sseResponse(executions.follow(userId, params.id, c.req.header('last-event-id')), { frame: idFrame }),
    cancelAgentResponse: ({ userId, params }) => executions.cancel(userId, params.id),
  });

  serveOperations(r, sessionOperations, {
    listSessions: ({ userId, query }, c) => shapeB(c, executions.listSessions(userId, query)),
    getSession: ({ userId, params }) => executions.session(userId, params.id),
    renameSession: ({ userId, params, body }) => executions.updateSession(userId, params.id, body),
    deleteSession: ({ userId, params }) => executions.deleteSession(userId, params.id),
    exportSession: ({ userId, params, query }) => {
      const file = executions.exportSession(userId, params.id, query.format);
      return new Response(file.text, { status: 200, headers: { 'content-type': file.type, 'content-disposition': file.disposition, 'cache-control': 'no-store' } });
    },
    // The rest of the body is an execute body, read by its own schema (the same 422s as execute).
    compareModels: async ({ params, body }, c) => {
      const responses = await executions.compare(c.get('principal'), params.id, parseExecuteBody(executePart(body)), body.models);
      return { template_id: String(responses[0].template_id), responses };
    },
  });

  return r;
}
