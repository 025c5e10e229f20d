/**
 * GGUF function calling plumbing: the real MCP servers' tool schemas narrowed for node-llama-cpp
 * compile as its JSON-schema grammars, tool turns become function calls with their results, and
 * a run of the tiny random-weight model with MCP tools offered goes through generateResponse
 * with `functions`. Whether a real model then calls a tool depends on the model (none ships here).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tempDir, call } from '../api/helpers.js';
import { withFake } from '../execution/helpers.js';
import { writeTinyLlama } from '../fixtures/gguf-writer.js';
import { ggufCalls, ggufFunctions, ggufHistory, toGbnfSchema } from '../../src-main/platform/engine/providers/gguf-tools.js';
import { loadLlama } from '../../src-main/platform/engine/providers/gguf-engine.js';
import { EVERYTHING, FILESYSTEM, addServer, everythingStdio, toolAgent } from './helpers.js';
import { limit } from '../fixtures/until.js';

async function realSchemas(): Promise<{ name: string; inputSchema: unknown }[]> {
  const out: { name: string; inputSchema: unknown }[] = [];
  for (const args of [[EVERYTHING, 'stdio'], [FILESYSTEM, tempDir('agent-desk-gguf-fs-')]]) {
    const c = new Client({ name: 'gguf-test', version: '1.0.0' });
    await c.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
    out.push(...(await c.listTools()).tools);
    await c.close();
  }
  return out;
}

describe('GGUF function calling', () => {
  it("every real MCP tool schema, narrowed, compiles as node-llama-cpp's JSON-schema grammar", async () => {
    const tools = await realSchemas();
    expect(tools.length).toBeGreaterThan(20);
    const { llama } = await loadLlama();
    for (const t of tools) {
      const schema = toGbnfSchema(t.inputSchema);
      await expect(llama.createGrammarForJsonSchema(schema as never), t.name).resolves.toBeTruthy();
    }
    const fns = ggufFunctions([{ name: 'echo', description: 'Echoes', parameters: { type: 'object', properties: { message: { type: 'string', minLength: 1 } }, required: ['message'], additionalProperties: false, $schema: 'x' } }]);
    expect(fns.echo).toEqual({ description: 'Echoes', params: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } });
  }, limit(120_000));

  it('tool turns become function calls carrying their results; calls come back as tool calls', () => {
    const h = ggufHistory([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'read it' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_text_file', arguments: '{"path":"/a"}' }] },
      { role: 'tool', toolCallId: 'c1', content: 'file text' },
    ]);
    expect(h).toEqual([
      { type: 'system', text: 'sys' },
      { type: 'user', text: 'read it' },
      { type: 'model', response: [{ type: 'functionCall', name: 'read_text_file', params: { path: '/a' }, result: 'file text' }] },
    ]);
    expect(ggufCalls([{ functionName: 'echo', params: { message: 'hi' } }], 2)).toEqual([{ id: 'gguf_2_0', name: 'echo', arguments: '{"message":"hi"}' }]);
  });

  describe('a run of the tiny GGUF model with MCP tools offered', () => {
    let env: Awaited<ReturnType<typeof withFake>>;
    let modelsDir: string;
    beforeAll(async () => {
      modelsDir = tempDir('agent-desk-models-');
      writeTinyLlama(`${modelsDir}/tiny-random.gguf`, { seed: 7, ctx: 4096 });
      env = await withFake({}, { AGENT_DESK_MODELS_DIR: modelsDir });
    });
    afterAll(async () => {
      await env.close();
      fs.rmSync(modelsDir, { recursive: true, force: true });
    });

    it('generates with the functions given (the random model answers text; nothing breaks)', async () => {
      const server = (await addServer(env.p, everythingStdio())).id;
      // One small tool: the tiny model's context cannot hold the documentation of all of them.
      const agent = await toolAgent(env.p, [], { tool_servers: [{ server_id: server, tools: ['echo'] }] });
      const r = await call(env.p, 'POST', `/api/agents/${agent}/execute`, { body: { model: 'tiny-random.gguf', messages: [{ role: 'user', content: 'hi' }], wait_execution: true } });
      const e = r.json.responses[0];
      expect(e.error).toBeNull();
      expect(e.status).toBe('succeeded');
    }, limit(120_000));
  });
});
