import type { DB } from '../../db/connection.js';

/** A row of `mcp_servers`; `env` and `headers` hold SecretBox-sealed JSON objects (or null). */
export interface McpServerRow {
  id: number;
  user_id: number;
  name: string;
  transport: 'stdio' | 'http';
  command: string | null;
  args: string;
  env: string | null;
  cwd: string | null;
  url: string | null;
  headers: string | null;
  approval: 'auto' | 'ask';
  always_tools: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

export type McpServerWrite = Omit<McpServerRow, 'id' | 'created_at'>;

/** All SQL of the MCP servers, statements prepared once. */
export class McpServersStore {
  private readonly listStmt;
  private readonly oneStmt;
  private readonly byNameStmt;
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly deleteStmt;
  private readonly alwaysStmt;

  constructor(private readonly db: DB) {
    this.listStmt = db.prepare<[number], McpServerRow>('SELECT * FROM mcp_servers WHERE user_id = ? ORDER BY id');
    this.oneStmt = db.prepare<[number, number], McpServerRow>('SELECT * FROM mcp_servers WHERE id = ? AND user_id = ?');
    this.byNameStmt = db.prepare<[number, string], McpServerRow>('SELECT * FROM mcp_servers WHERE user_id = ? AND name = ?');
    this.insertStmt = db.prepare(
      `INSERT INTO mcp_servers(user_id, name, transport, command, args, env, cwd, url, headers, approval, always_tools, enabled, created_at, updated_at)
       VALUES (@user_id, @name, @transport, @command, @args, @env, @cwd, @url, @headers, @approval, @always_tools, @enabled, @updated_at, @updated_at)`,
    );
    this.updateStmt = db.prepare(
      `UPDATE mcp_servers SET name=@name, transport=@transport, command=@command, args=@args, env=@env, cwd=@cwd, url=@url, headers=@headers,
       approval=@approval, always_tools=@always_tools, enabled=@enabled, updated_at=@updated_at WHERE id=@id AND user_id=@user_id`,
    );
    this.deleteStmt = db.prepare('DELETE FROM mcp_servers WHERE id = ? AND user_id = ?');
    this.alwaysStmt = db.prepare('UPDATE mcp_servers SET always_tools = ?, updated_at = ? WHERE id = ?');
  }

  list(userId: number): McpServerRow[] {
    return this.listStmt.all(userId);
  }

  one(userId: number, id: number): McpServerRow | undefined {
    return this.oneStmt.get(id, userId);
  }

  byName(userId: number, name: string): McpServerRow | undefined {
    return this.byNameStmt.get(userId, name);
  }

  insert(w: McpServerWrite): number {
    return Number(this.insertStmt.run(w).lastInsertRowid);
  }

  update(id: number, w: McpServerWrite): void {
    this.updateStmt.run({ ...w, id });
  }

  delete(userId: number, id: number): boolean {
    return this.deleteStmt.run(id, userId).changes > 0;
  }

  setAlways(id: number, tools: string[], now: number): void {
    this.alwaysStmt.run(JSON.stringify(tools), now, id);
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }
}
