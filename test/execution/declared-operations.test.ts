/**
 * Execute, agent responses (with their re-attach stream) and sessions served as declared
 * operations: each documented under its name, the hosted clients' older paths deprecated and
 * answering as their twins, the streams documented as such; and the renderer's client calling
 * them by name, the whole way through a session, against the platform in-process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, KEY, call } from '../api/helpers.js';
import { CHAT, chatBody, withFake } from './helpers.js';
import { createClient } from '../../src-renderer/api/client';
import { ops } from '../../src-renderer/api/operations';
import type { RawResponse, RequestInit, Transport } from '../../src-renderer/api/transport';
import type { Platform } from '../../src-main/platform/platform.js';

const IDS: [string, string, string][] = [
  ['post', '/api/agents/{id}/execute', 'executeAgent'],
  ['post', '/api/templates/{id}/execute', 'executeTemplate'],
  ['get', '/api/agent-responses', 'listAgentResponses'],
  ['get', '/api/agent-responses/{id}', 'getAgentResponse'],
  ['get', '/api/template-responses/{id}', 'getTemplateResponse'],
  ['get', '/api/agent-responses/{id}/stream', 'streamAgentResponse'],
  ['post', '/api/agent-responses/{id}/cancel', 'cancelAgentResponse'],
  ['get', '/api/sessions', 'listSessions'],
  ['get', '/api/sessions/{id}', 'getSession'],
  ['patch', '/api/sessions/{id}', 'renameSession'],
  ['delete', '/api/sessions/{id}', 'deleteSession'],
];

/** The renderer's transport over the platform's app in-process, with the test key; paths as the client builds them. */
function appTransport(p: Platform, seen: RequestInit[]): Transport {
  const send = (req: RequestInit) => {
    seen.push(req);
    return p.app.request(`${BASE}${req.path}`, { method: req.method, headers: { host: '127.0.0.1:8787', authorization: `Bearer ${KEY}`, ...req.headers }, body: req.body });
  };
  const headersOf = (res: Response) => Object.fromEntries([...res.headers].map(([k, v]) => [k.toLowerCase(), v]));
  return {
    kind: 'http',
    async request(req): Promise<RawResponse> {
      const res = await send(req);
      return { status: res.status, headers: headersOf(res), text: await res.text() };
    },
    async stream(req, h) {
      const res = await send(req);
      if (!res.ok || !res.body) return { status: res.status, text: await res.text() };
      const dec = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) h.onChunk(dec.decode(chunk, { stream: true }));
      return { status: res.status };
    },
    upload: () => Promise.reject(new Error('no uploads here')),
  };
}

describe('execution and session operations', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  let doc: any;
  beforeAll(async () => {
    env = await withFake({ reply: 'Hello from the fake model.' });
    doc = (await call(env.p, 'GET', '/api/openapi.json', { key: null })).json;
  });
  afterAll(() => env.close());

  it('documents each operation under its name', () => {
    for (const [method, path, id] of IDS) expect(doc.paths[path]?.[method]?.operationId, `${method} ${path}`).toBe(id);
  });

  it('documents execute as JSON or events with an optional body, the re-attach as events only, and the 409s in their words', () => {
    const exec = doc.paths['/api/agents/{id}/execute'].post;
    expect(exec.requestBody.required).toBe(false);
    expect(exec.description).toContain('(up to 100 s)');
    expect(exec.responses['200'].description).toBe('The execution (JSON), or its event stream');
    expect(Object.keys(exec.responses['200'].content)).toEqual(['application/json', 'text/event-stream']);
    expect(exec.responses['404'].description).toBe('Agent not found');
    const stream = doc.paths['/api/agent-responses/{id}/stream'].get;
    expect(stream.responses['200']).toMatchObject({ description: 'The event stream' });
    expect(Object.keys(stream.responses['200'].content)).toEqual(['text/event-stream']);
    expect(stream.parameters.map((x: any) => `${x.in} ${x.name}`).sort()).toEqual(['header last-event-id', 'path id']);
    expect(doc.paths['/api/agent-responses/{id}/cancel'].post.responses['409'].description).toBe('Already finished');
    expect(doc.paths['/api/sessions/{id}'].delete.responses['409'].description).toBe('An execution of it is running');
  });

  it('marks only the older paths deprecated, and they answer as their twins', async () => {
    expect(doc.paths['/api/templates/{id}/execute'].post.deprecated).toBe(true);
    expect(doc.paths['/api/template-responses/{id}'].get.deprecated).toBe(true);
    for (const [method, path] of IDS) if (!path.startsWith('/api/template')) expect(doc.paths[path][method].deprecated, path).toBeUndefined();
    const older = await call(env.p, 'POST', `/api/templates/${CHAT}/execute`, { body: chatBody('hi', { wait_execution: true }) });
    expect(older.status).toBe(200);
    const id = older.json.responses[0].id;
    expect(older.json.responses[0].status).toBe('succeeded');
    expect((await call(env.p, 'GET', `/api/template-responses/${id}`)).json).toEqual((await call(env.p, 'GET', `/api/agent-responses/${id}`)).json);
    expect((await call(env.p, 'POST', '/api/templates/999999/execute', { body: chatBody('hi') })).json).toEqual({ message: 'Agent not found' });
  });

  it("the renderer's client runs a session through them by name: stream, re-attach, get, list, rename, delete", async () => {
    const seen: RequestInit[] = [];
    const api = createClient(appTransport(env.p, seen));
    const { messages, ...answers } = chatBody('Say hello');
    const events: string[] = [];
    const last = await api.stream(ops.executeAgent, { params: { id: CHAT }, body: { answers, messages: messages as { role: 'user'; content: string }[], stream: true } }, (e) => events.push(e.status));
    expect(last?.status).toBe('completed');
    expect(events.at(0)).toBe('running');
    const id = last!.id;

    // A finished execution re-attaches with its final event at once, its id the output's length.
    const ids: (string | undefined)[] = [];
    const attached = await api.stream(ops.streamAgentResponse, { params: { id }, headers: { 'last-event-id': '0' } }, (_e, eventId) => ids.push(eventId));
    expect(attached?.status).toBe('completed');
    const stored = await api.call(ops.getAgentResponse, { params: { id } });
    expect(stored.output).toBe('Hello from the fake model.');
    expect(ids.at(-1)).toBe(String(stored.output.length));
    await expect(api.call(ops.cancelAgentResponse, { params: { id } })).rejects.toMatchObject({ status: 409 });

    const page = await api.call(ops.listSessions, { query: { scheduled: 'false', per_page: 5 } });
    expect(page.data.map((s) => s.id)).toContain(stored.root_id);
    expect((await api.call(ops.renameSession, { params: { id: stored.root_id }, body: { title: 'Greetings' } })).title).toBe('Greetings');
    expect((await api.call(ops.getSession, { params: { id: stored.root_id } })).executions.map((e) => e.id)).toEqual([id]);
    expect(await api.call(ops.deleteSession, { params: { id: stored.root_id } })).toEqual({ id: stored.root_id, deleted: true });
    await expect(api.call(ops.getAgentResponse, { params: { id } })).rejects.toMatchObject({ status: 404 });

    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /api/agents/${CHAT}/execute`,
      `GET /api/agent-responses/${id}/stream`,
      `GET /api/agent-responses/${id}`,
      `POST /api/agent-responses/${id}/cancel`,
      'GET /api/sessions?scheduled=false&per_page=5',
      `PATCH /api/sessions/${stored.root_id}`,
      `GET /api/sessions/${stored.root_id}`,
      `DELETE /api/sessions/${stored.root_id}`,
      `GET /api/agent-responses/${id}`,
    ]);
    expect(seen[1]!.headers?.['last-event-id']).toBe('0');
  });
});
