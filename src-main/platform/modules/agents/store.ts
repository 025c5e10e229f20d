import type { DB } from '../../db/connection.js';
import type { Agent } from '../../contract/agents.js';

export interface AgentRow {
  id: number;
  workspace_id: number;
  template_id: string | null;
  title: string;
  description: string | null;
  long_description: string | null;
  visibility: string;
  slug: string;
  active: number;
  type: Agent['type'];
  questions: string;
  instructions: string;
  created_by: number;
  created_at: number;
  updated_at: number;
  source: 'local' | 'remote';
  remote_id: number | null;
  remote_synced_at: number | null;
  share_context: number;
  tool_servers?: string;
}

/** The columns a local agent is created with (JSON columns as text): a subset of the row's. */
export type AgentInsert = Pick<
  AgentRow,
  'workspace_id' | 'template_id' | 'title' | 'description' | 'long_description' | 'visibility' | 'slug' | 'active' | 'type' | 'questions' | 'instructions' | 'created_by'
> & { tool_servers: string };

/** The columns an update writes (JSON columns as text). */
export type AgentUpdateRow = Pick<
  AgentRow,
  'title' | 'description' | 'long_description' | 'visibility' | 'slug' | 'active' | 'type' | 'questions' | 'instructions' | 'share_context'
> & { tool_servers: string };

type ListFilter = { userId: number; type: string | null; q: string | null };

/** Agents visible to a user are those of the workspaces the user belongs to. */
const VISIBLE = 'workspace_id IN (SELECT workspace_id FROM workspace_members WHERE user_id = @userId)';
const SEARCH = `(@q IS NULL OR instr(casefold(title), @q) > 0 OR instr(casefold(coalesce(description, '')), @q) > 0 OR instr(casefold(coalesce(long_description, '')), @q) > 0)`;

/** All SQL of agents, statements prepared once. */
export class AgentsStore {
  private readonly byIdStmt;
  private readonly bySlugStmt;
  private readonly listStmt;
  private readonly countStmt;
  private readonly versionStmt;
  private readonly slugTakenStmt;
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly deleteStmt;

  constructor(db: DB) {
    this.byIdStmt = db.prepare<{ id: number; userId: number }, AgentRow>(`SELECT * FROM agents WHERE id = @id AND ${VISIBLE}`);
    this.bySlugStmt = db.prepare<{ slug: string; userId: number }, AgentRow>(`SELECT * FROM agents WHERE slug = @slug AND ${VISIBLE}`);
    const where = `${VISIBLE} AND (@type IS NULL OR type = @type) AND ${SEARCH}`;
    this.listStmt = db.prepare<ListFilter & { limit: number; offset: number }, AgentRow>(`SELECT * FROM agents WHERE ${where} ORDER BY id LIMIT @limit OFFSET @offset`);
    this.countStmt = db.prepare<ListFilter, { n: number }>(`SELECT count(*) AS n FROM agents WHERE ${where}`);
    this.versionStmt = db
      .prepare<[number, number], number>(
        'SELECT updated_at FROM agents WHERE id = ? AND EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = agents.workspace_id AND m.user_id = ?)',
      )
      .pluck();
    // Slugs are unique across all agents, visible or not.
    this.slugTakenStmt = db.prepare<[string, number], { id: number }>('SELECT id FROM agents WHERE slug = ? AND id != ?');
    this.insertStmt = db.prepare<AgentInsert & { now: number }>(
      `INSERT INTO agents(workspace_id, template_id, title, description, long_description, visibility, slug, active, type, questions, instructions, tool_servers, created_by, created_at, updated_at)
       VALUES (@workspace_id, @template_id, @title, @description, @long_description, @visibility, @slug, @active, @type, @questions, @instructions, @tool_servers, @created_by, @now, @now)`,
    );
    this.updateStmt = db.prepare<AgentUpdateRow & { now: number; id: number }>(
      `UPDATE agents SET title=@title, description=@description, long_description=@long_description, visibility=@visibility, slug=@slug,
       active=@active, type=@type, questions=@questions, instructions=@instructions, share_context=@share_context, tool_servers=@tool_servers, updated_at=@now WHERE id=@id`,
    );
    this.deleteStmt = db.prepare<[number]>('DELETE FROM agents WHERE id = ?');
  }

  /** The agent when the user can see it. */
  visible(userId: number, id: number): AgentRow | undefined {
    return this.byIdStmt.get({ id, userId });
  }

  visibleBySlug(userId: number, slug: string): AgentRow | undefined {
    return this.bySlugStmt.get({ slug, userId });
  }

  /** By id; `type` and `q` (lower-cased: in title or descriptions) filter when not null. */
  page(filter: ListFilter, limit: number, offset: number): { rows: AgentRow[]; total: number } {
    return { rows: this.listStmt.all({ ...filter, limit, offset }), total: this.countStmt.get(filter)!.n };
  }

  /** The row's updated_at when the user can see it (a cache key), else undefined. */
  version(userId: number, id: number): number | undefined {
    return this.versionStmt.get(id, userId);
  }

  /** true when another agent (not `exceptId`) has this slug. */
  slugTaken(slug: string, exceptId = 0): boolean {
    return !!this.slugTakenStmt.get(slug, exceptId);
  }

  insert(row: AgentInsert, now: number): number {
    return Number(this.insertStmt.run({ ...row, now }).lastInsertRowid);
  }

  update(id: number, row: AgentUpdateRow, now: number): void {
    this.updateStmt.run({ ...row, now, id });
  }

  delete(id: number): void {
    this.deleteStmt.run(id);
  }
}

/** A row of `templates` (the catalog shipped in resources/; questions as JSON text). */
export interface TemplateRow {
  id: string;
  title: string;
  description: string;
  long_description: string | null;
  type: Agent['type'];
  questions: string;
  instructions: string;
  created_at: number;
  updated_at: number;
}

/** The columns a catalog refresh writes. */
export type TemplateWrite = Omit<TemplateRow, 'created_at' | 'updated_at'>;

type TemplateFilter = { type: string | null; q: string | null };

const TEMPLATE_WHERE = `(@type IS NULL OR type = @type) AND (@q IS NULL OR instr(casefold(title), @q) > 0 OR instr(casefold(description), @q) > 0 OR instr(casefold(coalesce(long_description, '')), @q) > 0)`;

/** All SQL of templates, statements prepared once. */
export class TemplatesStore {
  private readonly countStmt;
  private readonly pageStmt;
  private readonly oneStmt;
  private readonly insertStmt;
  private readonly updateStmt;

  constructor(private readonly db: DB) {
    this.countStmt = db.prepare<TemplateFilter, { n: number }>(`SELECT count(*) AS n FROM templates WHERE ${TEMPLATE_WHERE}`);
    this.pageStmt = db.prepare<TemplateFilter & { limit: number; offset: number }, TemplateRow>(
      `SELECT * FROM templates WHERE ${TEMPLATE_WHERE} ORDER BY created_at, id LIMIT @limit OFFSET @offset`,
    );
    this.oneStmt = db.prepare<[string], TemplateRow>('SELECT * FROM templates WHERE id = ?');
    this.insertStmt = db.prepare<TemplateWrite & { now: number }>(
      `INSERT INTO templates(id, title, description, long_description, type, questions, instructions, created_at, updated_at)
       VALUES (@id, @title, @description, @long_description, @type, @questions, @instructions, @now, @now)`,
    );
    this.updateStmt = db.prepare<TemplateWrite & { now: number }>(
      `UPDATE templates SET title=@title, description=@description, long_description=@long_description, type=@type, questions=@questions, instructions=@instructions, updated_at=@now WHERE id=@id`,
    );
  }

  /** Oldest first; `type` and `q` (lower-cased: in title or descriptions) filter when not null. */
  page(filter: TemplateFilter, limit: number, offset: number): { rows: TemplateRow[]; total: number } {
    return { rows: this.pageStmt.all({ ...filter, limit, offset }), total: this.countStmt.get(filter)!.n };
  }

  one(id: string): TemplateRow | undefined {
    return this.oneStmt.get(id);
  }

  insert(row: TemplateWrite, now: number): void {
    this.insertStmt.run({ ...row, now });
  }

  /** Rewrites the template's columns; created_at stays. */
  update(row: TemplateWrite, now: number): void {
    this.updateStmt.run({ ...row, now });
  }

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }
}
