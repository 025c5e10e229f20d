import { createRoute } from '@hono/zod-openapi';
import { WAIT_MS, type ExecutionsService } from './service.js';
import { createRouter, errorResponses, notFound, ok } from '../../transports/http/router.js';
import { IdPath, ErrorBody } from '../../contract/common.js';
import { AgentResponsePath, EMPTY_EXECUTE_REQUEST, ExecuteBody, ExecuteQuery, ExecuteResponse, Execution, ExecutionEvent, ExecutionListQuery, ExecutionPage, ExecutionStreamHeaders } from '../../contract/executions.js';
import { idFrame, sseResponse } from '../../transports/http/sse.js';
import { shapeB } from '../../transports/http/pagination.js';
import { Session, SessionDeleted, SessionDetail, SessionListQuery, SessionPage, SessionRename } from '../../contract/sessions.js';

export function executionRoutes({ executions }: { executions: ExecutionsService }) {
  const r = createRouter();
  const tags = ['Execution'];

  // The hosted platform's older path family (/api/templates...) reaches the same handlers:
  // one route per path in the contract, marked deprecated, never a copy of the code.
  for (const [path, older] of [['/agents/{id}/execute', false], ['/templates/{id}/execute', true]] as const) r.openapi(
    createRoute({
      method: 'post',
      path,
      tags,
      deprecated: older,
      summary: older ? 'Execute an agent (the older path of POST /api/agents/{id}/execute)' : 'Execute an agent',
      description:
        'Answers may come in `answers` or at the top level (`answers` wins). `stream: true` answers Server-Sent Events: `data: <execution without input>` per event, ' +
        '`running` events carry the text since the previous event, the last one is `completed` (or `failed` with `error`). Otherwise answers at once with status ' +
        `\`starting\`, or, with \`wait_execution\`/\`waitExecution\` (body or query), when the execution has ended (up to ${WAIT_MS / 1000} s).`,
      request: { params: IdPath, query: ExecuteQuery, body: { content: { 'application/json': { schema: ExecuteBody } }, required: false } },
      responses: {
        200: {
          description: 'The execution (JSON), or its event stream',
          content: { 'application/json': { schema: ExecuteResponse }, 'text/event-stream': { schema: ExecutionEvent } },
        },
        ...notFound('Agent'),
        ...errorResponses,
      },
    }),
    async (c) => {
      // Without a content type there is no body: the router hands over `{}` unparsed.
      const body = c.req.header('content-type') ? c.req.valid('json') : EMPTY_EXECUTE_REQUEST;
      const q = c.req.valid('query');
      const principal = c.get('principal');
      const { execution, events } = await executions.start(principal, c.req.valid('param').id, body);
      // An event stream is a plain Response, outside what the typed route describes.
      if (body.stream ?? q.stream ?? false) return sseResponse(events) as never;
      const wait = body.wait ?? q.wait_execution ?? q.waitExecution ?? false;
      const result = wait ? await executions.waitFor(principal.userId, execution.id, WAIT_MS) : execution;
      return c.json({ template_id: String(execution.template_id), responses: [result] }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/agent-responses',
      tags,
      summary: "List the caller's executions, newest first (ext)",
      description: 'Filters: `agent_id`, `status` (`completed` reads as `succeeded`), `root_id` (one session). Items are the GET /api/agent-responses/{id} shape.',
      request: { query: ExecutionListQuery },
      responses: { ...ok(ExecutionPage), ...errorResponses },
    }),
    (c) => c.json(shapeB(c, executions.list(c.get('principal').userId, c.req.valid('query'))), 200),
  );

  for (const [path, older] of [['/agent-responses/{id}', false], ['/template-responses/{id}', true]] as const) r.openapi(
    createRoute({
      method: 'get',
      path,
      tags,
      deprecated: older,
      summary: older
        ? 'Get an agent response (the older path of GET /api/agent-responses/{id})'
        : 'Get an agent response (with ext `context`: the memories and passages the model was given)',
      request: { params: AgentResponsePath },
      responses: { ...ok(Execution), ...notFound('Agent response'), ...errorResponses },
    }),
    (c) => c.json(executions.get(c.get('principal').userId, c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/agent-responses/{id}/stream',
      tags,
      summary: 'Re-attach to an execution: its events so far, then live, to the last (ext)',
      description:
        'Server-Sent Events framed as the execute stream, each with an `id:` line: the length of the output a client holds once it has that event. ' +
        'Without `Last-Event-ID` the first event is `running` with the whole output so far; with it, the events after that one. Then live events, ' +
        'ending with `completed` (or `failed`, `canceled` with `error`). A finished execution answers its final event at once.',
      request: { params: AgentResponsePath, headers: ExecutionStreamHeaders },
      responses: {
        200: { description: 'The event stream', content: { 'text/event-stream': { schema: ExecutionEvent } } },
        ...notFound('Agent response'),
        ...errorResponses,
      },
    }),
    (c) => {
      const frames = executions.follow(c.get('principal').userId, c.req.valid('param').id, c.req.valid('header')['last-event-id']);
      // An event stream is a plain Response, outside what the typed route describes.
      return sseResponse(frames, 200, idFrame) as never;
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/agent-responses/{id}/cancel',
      tags,
      summary: 'Cancel a running execution (ext)',
      request: { params: AgentResponsePath },
      responses: { ...ok(Execution), ...notFound('Agent response'), 409: { content: { 'application/json': { schema: ErrorBody } }, description: 'Already finished' }, ...errorResponses },
    }),
    async (c) => c.json(await executions.cancel(c.get('principal').userId, c.req.valid('param').id), 200),
  );

  const sessionTags = ['Sessions'];
  r.openapi(
    createRoute({
      method: 'get',
      path: '/sessions',
      tags: sessionTags,
      summary: "List the caller's chat sessions, newest activity first (ext)",
      description: 'A session is the executions sharing a `root_id`; its `id` is that root_id. `agent_id` keeps one agent\'s sessions.',
      request: { query: SessionListQuery },
      responses: { ...ok(SessionPage), ...errorResponses },
    }),
    (c) => c.json(shapeB(c, executions.listSessions(c.get('principal').userId, c.req.valid('query'))), 200),
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/sessions/{id}',
      tags: sessionTags,
      summary: 'A session with its executions in order (ext)',
      request: { params: IdPath },
      responses: { ...ok(SessionDetail), ...notFound('Session'), ...errorResponses },
    }),
    (c) => c.json(executions.session(c.get('principal').userId, c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'patch',
      path: '/sessions/{id}',
      tags: sessionTags,
      summary: 'Rename a session (ext)',
      request: { params: IdPath, body: { content: { 'application/json': { schema: SessionRename } }, required: true } },
      responses: { ...ok(Session), ...notFound('Session'), ...errorResponses },
    }),
    (c) => c.json(executions.renameSession(c.get('principal').userId, c.req.valid('param').id, c.req.valid('json')), 200),
  );

  r.openapi(
    createRoute({
      method: 'delete',
      path: '/sessions/{id}',
      tags: sessionTags,
      summary: 'Delete a session and its executions (ext); 409 while one runs',
      request: { params: IdPath },
      responses: { ...ok(SessionDeleted), ...notFound('Session'), 409: { content: { 'application/json': { schema: ErrorBody } }, description: 'An execution of it is running' }, ...errorResponses },
    }),
    (c) => c.json(executions.deleteSession(c.get('principal').userId, c.req.valid('param').id), 200),
  );

  return r;
}
