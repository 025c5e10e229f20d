/**
 * Tools bench: what one tool round trip costs through Agent Desk (the engine's tool loop: step
 * recorded, approval checked, timeout armed, result capped, through the managed MCP connection)
 * against calling the same MCP server directly with the SDK's Client, interleaved in one run.
 * Target: at most 5 ms added at the median on loopback.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createPlatform } from '../../src-main/platform/platform.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';
import { ToolLoop } from '../../src-main/platform/engine/tool-loop.js';
import type { BenchPart } from '../run.js';

const require = createRequire(import.meta.url);
const EVERYTHING = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
const ROUNDS = 300;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];

export default {
  name: 'tools: one MCP tool round trip, Agent Desk vs the SDK directly',
  async run() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-tools-'));
    const p = createPlatform({ dataDir: dir, logger: createLogger('silent'), env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    const direct = new Client({ name: 'bench', version: '1.0.0' });
    try {
      await direct.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }));
      const server = p.services.tools.create(1, { name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'], approval: 'auto' });
      const agent = p.services.agents.create(1, 1, { title: 'Bench tools', type: 'chat', tool_servers: [{ server_id: server.id, tools: ['echo'] }] });
      const ctl = new AbortController();
      const box = await p.services.tools.toolboxFor(1, agent.id, 0, ctl.signal);
      if (!box) throw new Error('no toolbox');
      const viaDesk = async (i: number) => {
        const loop = new ToolLoop(box, { step: () => {} }, ctl.signal);
        const t0 = performance.now();
        const msg = await loop.run({ id: `c${i}`, name: 'echo', arguments: `{"message":"m${i}"}` });
        const ms = performance.now() - t0;
        if (msg.content !== `Echo: m${i}`) throw new Error(`unexpected result ${msg.content}`);
        return ms;
      };
      const viaSdk = async (i: number) => {
        const t0 = performance.now();
        const r = await direct.callTool({ name: 'echo', arguments: { message: `m${i}` } });
        const ms = performance.now() - t0;
        if ((r.content as { text: string }[])[0].text !== `Echo: m${i}`) throw new Error('unexpected result');
        return ms;
      };
      for (let i = 0; i < 30; i++) {
        await viaSdk(i);
        await viaDesk(i);
      }
      const sdk: number[] = [];
      const desk: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        sdk.push(await viaSdk(i));
        desk.push(await viaDesk(i));
      }
      return {
        'direct SDK call, median ms': median(sdk),
        'through Agent Desk, median ms': median(desk),
        'added by Agent Desk, median ms (target ≤ 5)': median(desk) - median(sdk),
        'added by Agent Desk, p90 ms': p90(desk) - p90(sdk),
        'ratio Agent Desk / direct (median)': median(desk) / median(sdk),
        rounds: ROUNDS,
      };
    } finally {
      await direct.close().catch(() => {});
      await p.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
} satisfies BenchPart;
