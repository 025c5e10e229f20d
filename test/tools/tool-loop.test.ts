import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { call, tempDir } from '../api/helpers.js';
import { parseSSE, poll, withFake } from '../execution/helpers.js';
import { startFakeAnthropic, type FakeAnthropic } from '../fixtures/fake-anthropic.js';
import { addServer, ask, everythingStdio, filesystemStdio, lastToolResult, toolAgent, until } from './helpers.js';
import { limit } from '../fixtures/until.js';

let env: Awaited<ReturnType<typeof withFake>>;
let anth: FakeAnthropic;
let folder: string;
let everything: number;
let files: number;

const p = () => env.p;
const echoOnce = (message: string) => (body: any) => (body.tools?.length && !lastToolResult(body) ? [{ name: 'echo', arguments: JSON.stringify({ message }) }] : null);
const answerWithTool = (body: any) => {
  const r = lastToolResult(body);
  return r === null ? ['no tool result'] : ['The tool said: ', r];
};

beforeAll(async () => {
  anth = await startFakeAnthropic();
  env = await withFake({}, { AGENT_DESK_ANTHROPIC_API_KEY: 'ak-test', AGENT_DESK_ANTHROPIC_BASE_URL: anth.url });
  folder = tempDir('agent-desk-tools-fs-');
  everything = (await addServer(p(), everythingStdio())).id;
  files = (await addServer(p(), filesystemStdio(folder))).id;
});
afterAll(async () => {
  await env.close();
  await anth.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

function setLimits(limits: Record<string, number>) {
  p().services.settings.set('tools.limits', limits);
}

describe('the tool loop against real MCP servers', () => {
  it('OpenAI-style: the model calls echo on server-everything, gets the result, answers with it; steps ride on every stream event and on GET', async () => {
    env.fake.set({ toolCalls: echoOnce('hi there'), tokens: answerWithTool });
    const agent = await toolAgent(p(), [everything]);
    const r = await call(p(), 'POST', `/api/agents/${agent}/execute`, { body: ask('say hi through the tool', { stream: true }) });
    expect(r.status).toBe(200);
    const events = parseSSE(r.text);
    const last = events[events.length - 1];
    expect(last.status).toBe('completed');
    expect(events.map((e) => e.output).join('')).toBe('The tool said: Echo: hi there');
    // Every event after the first step appeared carries the steps; the spec's fields are untouched.
    const withSteps = events.filter((e) => e.steps);
    expect(withSteps.length).toBeGreaterThanOrEqual(2);
    expect(Object.keys(last)).toEqual(expect.arrayContaining(['id', 'status', 'output', 'error', 'credits', 'root_id', 'created_at', 'updated_at', 'template_id']));
    expect(last.steps).toEqual([
      expect.objectContaining({ id: 1, type: 'tool_call', server_id: everything, server: 'everything', tool: 'echo', arguments: { message: 'hi there' }, result: 'Echo: hi there', error: null, status: 'succeeded', approved: 'auto', duration_ms: expect.any(Number), started_at: expect.stringMatching(/Z$/) }),
    ]);
    // The model was offered the tool with its real schema and got the real result.
    const chat = env.fake.requests.filter((q) => q.path === '/v1/chat/completions').slice(-2);
    expect(chat[0].body.tools.map((t: any) => t.function.name)).toContain('echo');
    expect(chat[0].body.tools.find((t: any) => t.function.name === 'echo').function.parameters.properties.message).toBeTruthy();
    expect(lastToolResult(chat[1].body)).toBe('Echo: hi there');
    const stored = (await call(p(), 'GET', `/api/agent-responses/${last.id}`)).json;
    expect(stored.status).toBe('succeeded');
    expect(stored.steps).toEqual(last.steps);
  });

  it('Anthropic-style: tool_use of read_text_file on server-filesystem, tool_result back, answer from the file', async () => {
    fs.writeFileSync(path.join(folder, 'note.txt'), 'The launch code is 4242.');
    anth.set({
      toolUses: (body) => (JSON.stringify(body.messages).includes('tool_result') ? null : [{ name: 'read_text_file', input: { path: path.join(folder, 'note.txt') } }]),
      tokens: (body) => {
        const blocks = body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : []));
        const res = blocks.find((b: any) => b.type === 'tool_result');
        return ['File: ', String(res?.content ?? 'none')];
      },
    });
    const agent = await toolAgent(p(), [files]);
    const r = await call(p(), 'POST', `/api/agents/${agent}/execute`, { body: ask('what is the launch code?', { model: 'claude-sonnet-4-5', wait_execution: true }) });
    const e = r.json.responses[0];
    expect(e.status).toBe('succeeded');
    expect(e.output).toBe('File: The launch code is 4242.');
    expect(e.steps).toHaveLength(1);
    expect(e.steps[0]).toMatchObject({ tool: 'read_text_file', server: 'files', status: 'succeeded', result: 'The launch code is 4242.' });
    const sent = anth.requests.filter((q) => q.path === '/v1/messages').slice(-2);
    expect(sent[0].body.tools.find((t: any) => t.name === 'read_text_file').input_schema.properties.path).toBeTruthy();
  });

  it('a tool that hangs is stopped at the per-call timeout; the error goes back to the model, which still answers', async () => {
    setLimits({ call_timeout_ms: 1000 });
    try {
      env.fake.set({ toolCalls: (b) => (b.tools?.length && !lastToolResult(b) ? [{ name: 'trigger-long-running-operation', arguments: '{"duration": 60, "steps": 2}' }] : null), tokens: answerWithTool });
      const agent = await toolAgent(p(), [everything]);
      const r = await call(p(), 'POST', `/api/agents/${agent}/execute`, { body: ask('run the long thing', { wait_execution: true }) });
      const e = r.json.responses[0];
      expect(e.status).toBe('succeeded');
      expect(e.steps[0]).toMatchObject({ status: 'failed', error: 'The tool did not answer within 1 s and was stopped.' });
      expect(e.output).toBe('The tool said: Error: The tool did not answer within 1 s and was stopped.');
    } finally {
      setLimits({});
    }
  }, limit(30_000));

  it('a 1 MB tool result is capped with a note for the model; the step keeps an excerpt', async () => {
    const big = 'x'.repeat(1024 * 1024);
    fs.writeFileSync(path.join(folder, 'big.txt'), big);
    let seen = '';
    env.fake.set({
      toolCalls: (b) => (b.tools?.length && !lastToolResult(b) ? [{ name: 'read_text_file', arguments: JSON.stringify({ path: path.join(folder, 'big.txt') }) }] : null),
      tokens: (b) => {
        seen = lastToolResult(b) ?? '';
        return ['ok'];
      },
    });
    const agent = await toolAgent(p(), [files]);
    const r = await call(p(), 'POST', `/api/agents/${agent}/execute`, { body: ask('read big', { wait_execution: true }) });
    const e = r.json.responses[0];
    expect(e.status).toBe('succeeded');
    expect(seen.startsWith('x'.repeat(32_000))).toBe(true);
    expect(seen).toContain('[Agent Desk truncated this tool result: 1048576 characters, the first 32000 shown.]');
    expect(seen.length).toBeLessThan(33_000);
    expect(e.steps[0].status).toBe('succeeded');
    expect(e.steps[0].result.length).toBeLessThanOrEqual(4001);
  }, limit(30_000));

  it('a model that never stops calling tools is bounded: 8 steps, then one round without tools, then the run fails with tool_limit', async () => {
    let n = 0;
    env.fake.set({ toolCalls: () => [{ name: 'echo', arguments: JSON.stringify({ message: `again ${++n}` }) }], tokens: ['never'] });
    const agent = await toolAgent(p(), [everything]);
    const before = env.fake.requests.length;
    const r = await call(p(), 'POST', `/api/agents/${agent}/execute`, { body: ask('loop forever', { wait_execution: true }) });
    const e = r.json.responses[0];
    expect(e.status).toBe('failed');
    expect(e.error.code).toBe('tool_limit');
    expect(e.steps).toHaveLength(8);
    expect(e.steps.every((s: any) => s.status === 'succeeded')).toBe(true);
    const reqs = env.fake.requests.slice(before).filter((q) => q.path === '/v1/chat/completions');
    expect(reqs).toHaveLength(9);
    expect(reqs[8].body.tools).toBeUndefined();
  }, limit(60_000));

  it('unknown tool names and bad JSON arguments are returned to the model as errors', async () => {
    env.fake.set({ toolCalls: (b) => (b.tools?.length && !lastToolResult(b) ? [{ name: 'echo', arguments: '{not json' }] : null), tokens: answerWithTool });
    const agent = await toolAgent(p(), [everything]);
    const e = (await call(p(), 'POST', `/api/agents/${agent}/execute`, { body: ask('bad args', { wait_execution: true }) })).json.responses[0];
    expect(e.status).toBe('succeeded');
    expect(e.steps[0]).toMatchObject({ status: 'failed', error: 'Not run: the arguments are not valid JSON.' });
    expect(e.output).toMatch(/^The tool said: Error: the arguments are not valid JSON/);
  });

  it('a server that crashes mid-call: the step fails with a clear error, the model still answers, the server is restarted', async () => {
    const crashy = (await addServer(p(), everythingStdio({ name: 'crashy' }))).id;
    env.fake.set({ toolCalls: (b) => (b.tools?.length && !lastToolResult(b) ? [{ name: 'trigger-long-running-operation', arguments: '{"duration": 60, "steps": 2}' }] : null), tokens: answerWithTool });
    const agent = await toolAgent(p(), [crashy]);
    const started = (await call(p(), 'POST', `/api/agents/${agent}/execute`, { body: ask('run long') })).json.responses[0];
    await poll(p(), started.id, (x) => x.steps?.[0]?.status === 'running', 30_000);
    const pid = (await call(p(), 'GET', `/api/mcp-servers/${crashy}`)).json.pid as number;
    process.kill(pid, 'SIGKILL');
    const e = await poll(p(), started.id, (x) => x.status === 'succeeded' || x.status === 'failed', 30_000);
    expect(e.status).toBe('succeeded');
    expect(e.steps[0].status).toBe('failed');
    expect(e.steps[0].error).toMatch(/The MCP server "crashy" stopped while trigger-long-running-operation ran/);
    expect(e.output).toContain('Error: The MCP server "crashy" stopped');
    const back = await until('the restart', async () => {
      const v = (await call(p(), 'GET', `/api/mcp-servers/${crashy}`)).json;
      return v.status === 'running' && v.pid !== pid ? v : null;
    });
    expect(back.restarts).toBeGreaterThanOrEqual(1);
  }, limit(60_000));

  it('cancel during a tool call stops the run at once: canceled, the step marked', async () => {
    env.fake.set({ toolCalls: (b) => (b.tools?.length && !lastToolResult(b) ? [{ name: 'trigger-long-running-operation', arguments: '{"duration": 60, "steps": 2}' }] : null), tokens: answerWithTool });
    const agent = await toolAgent(p(), [everything]);
    const started = (await call(p(), 'POST', `/api/agents/${agent}/execute`, { body: ask('run long') })).json.responses[0];
    await poll(p(), started.id, (x) => x.steps?.[0]?.status === 'running', 30_000);
    const before = env.fake.requests.length;
    const c = await call(p(), 'POST', `/api/agent-responses/${started.id}/cancel`);
    expect(c.json.status).toBe('canceled');
    expect(c.json.steps[0]).toMatchObject({ status: 'failed', error: 'Canceled.' });
    // The model was not called again after the cancel.
    expect(env.fake.requests.length).toBe(before);
    // The server is still usable after the canceled request.
    const ok = await p().services.tools.connectionOf(1, everything).call('echo', { message: 'still here' }, { signal: AbortSignal.timeout(limit(20_000)), timeoutMs: limit(20_000) });
    expect(ok.text).toBe('Echo: still here');
  }, limit(60_000));

  it('a server of the agent that cannot start shows as a failed step; the other servers\' tools still work', async () => {
    const broken = (await addServer(p(), { name: 'wont-start', command: process.execPath, args: ['-e', 'console.error("no token configured"); process.exit(2)'], approval: 'auto' })).id;
    env.fake.set({ toolCalls: echoOnce('still works'), tokens: answerWithTool });
    const agent = await toolAgent(p(), [broken, everything]);
    const e = (await call(p(), 'POST', `/api/agents/${agent}/execute`, { body: ask('go', { wait_execution: true }) })).json.responses[0];
    expect(e.status).toBe('succeeded');
    expect(e.steps[0]).toMatchObject({ server: 'wont-start', tool: '(start)', status: 'failed' });
    expect(e.steps[0].error).toMatch(/not offered to the model: The MCP server "wont-start" could not start/);
    expect(e.steps[1]).toMatchObject({ tool: 'echo', status: 'succeeded' });
    expect(e.output).toBe('The tool said: Echo: still works');
  }, limit(30_000));
});
