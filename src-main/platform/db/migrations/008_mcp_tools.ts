import type { Migration } from '../migrate.js';

/**
 * Tools from MCP servers: the servers a user added (secrets in `env` and `headers` sealed by the
 * platform's SecretBox, as provider keys are), the servers each agent may use, and the tool
 * steps of an execution (ext `steps`).
 */
export const m008McpTools: Migration = {
  version: 8,
  name: 'mcp servers, agent tool servers, execution steps',
  up(db) {
    db.exec(`
      CREATE TABLE mcp_servers (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        transport TEXT NOT NULL CHECK (transport IN ('stdio','http')),
        command TEXT,
        args TEXT NOT NULL DEFAULT '[]',
        env TEXT,
        cwd TEXT,
        url TEXT,
        headers TEXT,
        approval TEXT NOT NULL DEFAULT 'ask' CHECK (approval IN ('auto','ask')),
        always_tools TEXT NOT NULL DEFAULT '[]',
        enabled INTEGER NOT NULL DEFAULT 1,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX mcp_servers_name ON mcp_servers(user_id, name);
      ALTER TABLE agents ADD COLUMN tool_servers TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE executions ADD COLUMN steps TEXT NOT NULL DEFAULT '[]';
    `);
  },
};
