/**
 * The "Connect other tools" block of /api/docs: the OpenAI SDK, curl, and MCP clients (HTTP and
 * stdio). Static HTML; the page's script puts the server's own origin into every `.origin`.
 */
export function connectToolsHtml(): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const origin = '<span class="origin">http://127.0.0.1:8787</span>';
  const block = (title: string, code: string) => `<details><summary>${title}</summary><pre>${esc(code).replace(/ORIGIN/g, origin)}</pre></details>`;
  return `<h2 id="connect">Connect other tools</h2>
<div class="op">
<p>Every agent is a model of an <b>OpenAI-compatible API</b> at <code>/v1</code> (<code>model</code> = the agent's slug; a raw provider
model such as <code>gpt-4o-mini</code> runs the default <code>chat</code> agent with that model), and an <b>MCP server</b> at <code>/mcp</code>.
Both take the same bearer key and run through the same engine: instructions, memories, files, credits, stored executions and webhooks.
System messages are added to the agent's instructions, never replace them.</p>
${block(
  'OpenAI SDK (TypeScript)',
  `import OpenAI from 'openai';
const client = new OpenAI({ baseURL: 'ORIGIN/v1', apiKey: process.env.AGENT_DESK_KEY });
const res = await client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'Hello' }] });
console.log(res.choices[0].message.content); // res.id = chatcmpl-<execution id>

const stream = await client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'Hi' }], stream: true });
for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? '');

// One agent fixed by its id: baseURL ORIGIN/api/agents/5/openai, \`model\` optional.`,
)}
${block(
  'Function calling, Responses API, Anthropic SDK',
  `// Client tools: the model's calls come back as tool_calls (finish_reason "tool_calls"); send the results as tool messages.
// The agent's own MCP tools still run inside Agent Desk.
const r = await client.responses.create({ model: 'chat', input: 'Hello' }); // r.id = resp_<execution id>; previous_response_id continues it

import Anthropic from '@anthropic-ai/sdk';
const claude = new Anthropic({ baseURL: 'ORIGIN', apiKey: process.env.AGENT_DESK_KEY }); // POST ORIGIN/v1/messages, key as x-api-key
const m = await claude.messages.create({ model: 'chat', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello' }] });`,
)}
${block(
  'Claude Code',
  `ANTHROPIC_BASE_URL=ORIGIN ANTHROPIC_AUTH_TOKEN=$AGENT_DESK_KEY \\
ANTHROPIC_MODEL=chat ANTHROPIC_DEFAULT_HAIKU_MODEL=chat claude`,
)}
${block(
  'curl',
  `curl -s ORIGIN/v1/models -H "Authorization: Bearer $AGENT_DESK_KEY"
curl -sN ORIGIN/v1/chat/completions -H "Authorization: Bearer $AGENT_DESK_KEY" -H 'Content-Type: application/json' \\
  -d '{"model":"chat","stream":true,"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hello"}]}'`,
)}
${block(
  'MCP client over HTTP (Streamable HTTP, stateless)',
  `{
  "mcpServers": {
    "agent-desk": { "type": "http", "url": "ORIGIN/mcp", "headers": { "Authorization": "Bearer YOUR_KEY" } }
  }
}`,
)}
${block(
  'MCP client over stdio (the client launches the server; no key needed)',
  `{
  "mcpServers": {
    "agent-desk": { "command": "npm", "args": ["run", "-s", "--prefix", "/path/to/agent-desk", "mcp", "--", "--data-dir", "/path/to/data"] }
  }
}`,
)}
<p class="mut">MCP tools: list_agents, run_agent, get_agent_response, search_memories, create_memory, update_memory, delete_memory, list_collections, list_files,
read_file; resources <code>collection://{id}</code>.</p>
</div>
<script>document.querySelectorAll('.origin').forEach(function(e){e.textContent=location.origin})</script>`;
}
