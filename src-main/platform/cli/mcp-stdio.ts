/**
 * `npm run mcp -- [--data-dir DIR]`: the Agent Desk MCP server over stdio, for clients that launch
 * their servers (Claude Desktop, Cursor, ...). It opens the platform on the data dir in-process and
 * serves the same tools as `/mcp`. stdout is the protocol channel: every log goes to stderr.
 *
 * Whoever can launch this process can read the data dir anyway, so it acts as the default user
 * without a key, as the desktop app itself does.
 */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createPlatform } from '../platform.js';
import { createLogger } from '../kernel/log.js';
import { DEFAULT_USER_ID } from '../kernel/context.js';
import { createMcpServer } from '../transports/mcp/server.js';
import { runCommand } from './exit.js';

const USAGE = `Usage: npm run mcp -- [--data-dir DIR]
Serves the Agent Desk MCP tools over stdio. Data dir: --data-dir, else AGENT_DESK_DATA_DIR, else the app's default.`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  // pino's default destination here is fd 2 already; stated so no one "fixes" it to stdout.
  const logger = createLogger(process.env.AGENT_DESK_LOG_LEVEL ?? 'warn');
  const platform = createPlatform({ dataDir: values['data-dir'], logger });
  const server = createMcpServer({ platform, principal: { userId: DEFAULT_USER_ID, via: 'bridge' } });
  const transport = new StdioServerTransport();

  let closing = false;
  const shutdown = async (code: number) => {
    if (closing) return;
    closing = true;
    try {
      await server.close();
    } catch {}
    await platform.close();
    process.exit(code);
  };
  // The client ends the session by closing our stdin; signals end it too.
  transport.onclose = () => void shutdown(0);
  process.stdin.on('end', () => void shutdown(0));
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  await server.connect(transport);
  logger.info({ dataDir: platform.config.dataDir }, 'Agent Desk MCP server on stdio');
}

runCommand(main, USAGE);
