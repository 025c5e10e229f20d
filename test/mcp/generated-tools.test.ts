import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Operation } from '../../src-main/platform/contract/operation.js';
import { RunAgentInput } from '../../src-main/platform/contract/mcp.js';
import { KEY, http, startServer, type TestServer } from '../openai/server.js';
import { ROOT, linesWhere, sourcesUnder, type Source } from '../architecture/sources.js';

/**
 * The MCP tools are the operations marked for MCP: each tool's input schema is the JSON Schema of
 * its operation's fields, a call is the operation's own request (its validation, its sentences), and
 * transports/mcp writes no input schema of its own.
 */

type Json = Record<string, any>;

/** Every operation table of the contract, found by reading every contract module (a new table is not missed). */
const CONTRACT = path.join(ROOT, 'src-main/platform/contract');
const contractModules = (await Promise.all(
  fs
    .readdirSync(CONTRACT)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => import(pathToFileURL(path.join(CONTRACT, f)).href)),
)) as Record<string, unknown>[];
const isOperation = (v: unknown): v is Operation => !!v && typeof v === 'object' && 'method' in v && 'path' in v && 'response' in v;
type Marked = [string, Operation & { mcp: NonNullable<Operation['mcp']> }];
const marked: Marked[] = contractModules.flatMap((mod) =>
  Object.values(mod)
    .filter((t): t is Record<string, unknown> => !!t && typeof t === 'object' && Object.values(t).length > 0 && Object.values(t).every(isOperation))
    .flatMap((table) => Object.entries(table as Record<string, Operation>).flatMap(([name, op]) => (op.mcp ? [[name, op] as Marked] : []))),
);

/** A JSON Schema with its `#/definitions/...` references replaced by what they name (`allOf` of one schema read as that schema). */
function resolved(node: unknown, defs: Json): any {
  if (Array.isArray(node)) return node.map((n) => resolved(n, defs));
  if (!node || typeof node !== 'object') return node;
  let out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === '$ref') out = { ...resolved(defs[String(v).replace('#/definitions/', '')], defs), ...out };
    else if (k === 'allOf' && (v as unknown[]).length === 1) out = { ...resolved((v as unknown[])[0], defs), ...out };
    else out[k] = resolved(v, defs);
  }
  return out;
}

/**
 * What the fields of the operation are, as z.toJSONSchema says: the body as sent (input); a path,
 * query or header field as the operation reads the text it arrives as (output: its bounds and
 * defaults); required, what the input side requires.
 */
function fieldsOf(op: Operation): { properties: Json; required: string[] }[] {
  const doc = (schema: z.ZodType, io: 'input' | 'output') => {
    const d = z.toJSONSchema(schema, { io, target: 'draft-7' }) as Json;
    return resolved(d, d.definitions ?? {});
  };
  return (['params', 'query', 'headers', 'body'] as const)
    .filter((part) => op[part])
    .map((part) => ({ properties: doc(op[part]!, part === 'body' ? 'input' : 'output').properties ?? {}, required: doc(op[part]!, 'input').required ?? [] }));
}

async function connect(s: TestServer): Promise<Client> {
  const client = new Client({ name: 'generated-tools-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } }));
  return client;
}

const text = (r: any) => (r.content as { text: string }[]).map((c) => c.text).join('');

describe('MCP tools generated from the operations marked for MCP', () => {
  let s: TestServer;
  let client: Client;
  let tools: Awaited<ReturnType<Client['listTools']>>['tools'];
  beforeAll(async () => {
    s = await startServer();
    client = await connect(s);
    ({ tools } = await client.listTools());
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
  });

  it('serves every marked operation as a tool under its name, and keeps the names clients call', () => {
    expect(marked.map(([, op]) => op.mcp.tool).sort()).toEqual(
      ['create_memory', 'delete_memory', 'get_agent_response', 'list_agents', 'list_collections', 'list_files', 'read_file', 'search_memories', 'update_memory'].sort(),
    );
    // The one tool that is not an operation: run_agent (it runs an agent to its end).
    expect(tools.map((t) => t.name).sort()).toEqual([...marked.map(([, op]) => op.mcp.tool), 'run_agent'].sort());
  });

  it("gives every tool the JSON Schema of its operation's fields, merged flat, as its input schema", () => {
    for (const [name, op] of marked) {
      const tool = tools.find((t) => t.name === op.mcp.tool)!;
      const argOf = (field: string) => Object.entries(op.mcp.args ?? {}).find(([, f]) => f === field)?.[0] ?? field;
      const properties: Json = {};
      const required: string[] = [];
      for (const part of fieldsOf(op)) {
        for (const [field, schema] of Object.entries(part.properties)) properties[argOf(field)] = schema;
        required.push(...part.required.map(argOf));
      }
      expect(tool.inputSchema, name).toEqual({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties, ...(required.length ? { required } : {}) });
      expect(Object.keys(properties).length, name).toBeGreaterThan(0);
    }
    // Spot checks against the contract's own numbers, and the argument names clients have used.
    const schemaOf = (tool: string) => tools.find((t) => t.name === tool)!.inputSchema as Json;
    expect(schemaOf('create_memory').properties.memory).toEqual({ type: 'string', minLength: 1, maxLength: 32000 });
    expect(schemaOf('create_memory').required).toEqual(['memory']);
    expect(Object.keys(schemaOf('search_memories').properties).sort()).toEqual(['collection_id', 'page', 'per_page', 'query']);
    expect(schemaOf('search_memories').properties.per_page).toEqual({ type: 'integer', minimum: 1, maximum: 50, default: 10 });
    expect(schemaOf('search_memories').required).toBeUndefined();
    expect(schemaOf('update_memory').required).toEqual(['id', 'memory']);
    expect(Object.keys(schemaOf('read_file').properties).sort()).toEqual(['file_id', 'limit', 'offset']);
    expect(Object.keys(schemaOf('list_files').properties)).toContain('workspace_id');
    // run_agent's input is declared in the contract and generated the same way.
    const runAgent = tools.find((t) => t.name === 'run_agent')!.inputSchema as Json;
    const declared = z.toJSONSchema(RunAgentInput, { io: 'input', target: 'draft-7' }) as Json;
    expect(runAgent).toEqual(declared);
  });

  it("answers a bad argument with the operation's own validation sentence as a tool error", async () => {
    // Arguments the tool does not rename: the sentences are the API's, exactly (a renamed one is the next case).
    const cases: [tool: string, args: Json, method: string, path: string, body?: Json][] = [
      ['list_agents', { per_page: 500 }, 'GET', '/api/agents?per_page=500'],
      ['list_agents', { page: 'first' }, 'GET', '/api/agents?page=first'],
      ['create_memory', { memory: 'a'.repeat(32001) }, 'POST', '/api/memories', { memory: 'a'.repeat(32001) }],
      ['create_memory', { memory: 'x', collection_id: 'seven' }, 'POST', '/api/memories', { memory: 'x', collection_id: 'seven' }],
      ['read_file', { file_id: 1, limit: 0 }, 'GET', '/api/files/1/passages?limit=0'],
    ];
    for (const [tool, args, method, path, body] of cases) {
      const direct = await http(s, method, path, body);
      expect(direct.status, path).toBe(422);
      const details = Object.entries(direct.json.errors as Record<string, string[]>).map(([field, msgs]) => `${field}: ${msgs.join(' ')}`);
      const res = await client.callTool({ name: tool, arguments: args });
      expect(res.isError, tool).toBe(true);
      expect(text(res), tool).toBe([direct.json.message, ...details].join('\n'));
    }
    // A path argument left out cannot make a request: said as the operation's schema says it, never a crash.
    const noId = await client.callTool({ name: 'delete_memory', arguments: {} });
    expect(noId.isError).toBe(true);
    expect(text(noId)).toBe('The id field is required.\nid: The id field is required.');
    // A value no header or path can carry is refused, not thrown.
    const badHeader = await client.callTool({ name: 'list_files', arguments: { workspace_id: '1\r\nx-evil: 1' } });
    expect(badHeader.isError).toBe(true);
    expect(text(badHeader)).toBe('The selected workspace_id is invalid.\nworkspace_id: The selected workspace_id is invalid.');
    const badPath = await client.callTool({ name: 'update_memory', arguments: { id: '\ud800', memory: 'x' } });
    expect(badPath.isError).toBe(true);
    expect(text(badPath)).toMatch(/^The selected id is invalid\./);
    // Nothing was written by the refused calls.
    expect((await http(s, 'GET', '/api/memories')).json.memories).toEqual([]);
  });

  it("words a renamed argument's error with the argument's name, never the HTTP field's", async () => {
    // The API's own answer names its field (`The q field …`, `The x-workspace-id header …`); the tool's names the argument.
    const cases: [tool: string, args: Json, path: string, headers: Record<string, string>, field: string, arg: string][] = [
      ['search_memories', { query: 'x'.repeat(501) }, `/api/memories?q=${'x'.repeat(501)}`, {}, 'q', 'query'],
      ['list_files', { workspace_id: 'seven' }, '/api/files', { 'x-workspace-id': 'seven' }, 'x-workspace-id', 'workspace_id'],
    ];
    for (const [tool, args, path, headers, field, arg] of cases) {
      const direct = await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${KEY}`, ...headers } });
      expect(direct.status, path).toBe(422);
      const errors = ((await direct.json()) as Json).errors as Record<string, string[]>;
      expect(Object.keys(errors), path).toEqual([field]);
      const said = errors[field]![0]!;
      const form = [`The ${field} field `, `The ${field} header `].find((f) => said.startsWith(f));
      expect(form, said).toBeDefined();
      const shown = `The ${arg.replace(/_/g, ' ')} field ${said.slice(form!.length)}`;
      const res = await client.callTool({ name: tool, arguments: args });
      expect(res.isError, tool).toBe(true);
      expect(text(res), tool).toBe(`${shown}\n${arg}: ${shown}`);
      expect(text(res), tool).not.toContain(`The ${field} `);
    }
  });

  it('answers with the handler of the operation: what the tool wrote, the API reads, and the reverse', async () => {
    const created = await client.callTool({ name: 'create_memory', arguments: { memory: 'Generated tools write through the API.' } });
    expect(created.isError).toBeFalsy();
    const viaApi = await http(s, 'GET', '/api/memories');
    expect(created.structuredContent).toEqual({ message: expect.any(String), memory: viaApi.json.memories[0] });
    const listed = await client.callTool({ name: 'search_memories', arguments: { query: 'generated' } });
    expect(listed.structuredContent).toEqual((await http(s, 'GET', '/api/memories?q=generated')).json);
    const gone = await client.callTool({ name: 'delete_memory', arguments: { id: viaApi.json.memories[0].id } });
    expect(gone.structuredContent).toEqual({ message: expect.any(String) });
    expect((await http(s, 'GET', '/api/memories')).json.memories).toEqual([]);
  });
});

/** Zod schemas built in transports/mcp, an `inputSchema` written as an object, or the SDK's zod-shaped registerTool. */
const HAND_WRITTEN = /\bz\.(?!toJSONSchema\b|Zod\w+\b|infer\b|input\b|output\b)\w+\(|\binputSchema:\s*\{|\.registerTool\(/;

export function handWrittenSchemas(files: Source[]): string[] {
  return linesWhere(files, (_, line) => !/^\s*(\/\/|\*|\/\*)/.test(line) && HAND_WRITTEN.test(line));
}

describe('transports/mcp writes no input schema by hand (ARCHITECTURE.md)', () => {
  it('finds planted hand-written schemas', () => {
    const planted: Source = {
      name: 'src-main/platform/transports/mcp/planted.ts',
      text: [
        "const page = z.number().int().min(1).optional().describe('Page number');",
        "server.registerTool('list_agents', { title: 'List agents', inputSchema: { q: z.string().max(500).optional() } }, handler);",
        'const tool = { name: "x", inputSchema: { type: "object", properties: {} } };',
        '// z.string() in a comment is not a schema',
        'const js = z.toJSONSchema(schema, { io: "input" }); if (schema instanceof z.ZodObject) use(js);',
      ].join('\n'),
    };
    expect(handWrittenSchemas([planted])).toHaveLength(3);
  });

  it('finds none in transports/mcp', () => {
    const files = sourcesUnder('src-main/platform/transports/mcp');
    expect(files.length).toBeGreaterThan(5);
    expect(handWrittenSchemas(files)).toEqual([]);
  });
});
