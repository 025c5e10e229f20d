import type { ServiceContext, Page } from '../../kernel/context.js';
import { offsetOf } from '../../kernel/context.js';
import type { Question } from '../../contract/agents.js';
import { isoZ, nowMicros } from '../../kernel/time.js';
import { statements } from '../../db/statements.js';

export interface CatalogTemplate {
  id: string;
  title: string;
  description: string;
  long_description?: string | null;
  type: 'chat' | 'image' | 'text' | 'video';
  questions: Question[];
  instructions?: string;
}

interface TemplateRow {
  id: string;
  title: string;
  description: string;
  long_description: string | null;
  type: CatalogTemplate['type'];
  questions: string;
  instructions: string;
  created_at: number;
  updated_at: number;
}

export interface ResourceItem {
  id: string;
  title: string;
  description: string;
  created_at: string;
  updated_at: string;
}

const WHERE = `(@type IS NULL OR type = @type) AND (@q IS NULL OR instr(casefold(title), @q) > 0 OR instr(casefold(description), @q) > 0 OR instr(casefold(coalesce(long_description, '')), @q) > 0)`;

/** Templates (`/api/resources`): the read-only catalog shipped in resources/, refreshed at start-up. */
export class TemplatesService {
  /** Statements compiled on first use, then reused. */
  private readonly sql: ReturnType<typeof statements>;

  constructor(private readonly ctx: ServiceContext) {
    this.sql = statements(ctx.db);}

  list(q: { page: number; per_page: number; q?: string; type?: string }): Page<ResourceItem> {
    const params = { type: q.type ?? null, q: q.q ? q.q.toLowerCase() : null };
    const total = this.sql<Record<string, unknown>, { n: number }>(`SELECT count(*) AS n FROM templates WHERE ${WHERE}`).get(params)!.n;
    const items = this.sql<Record<string, unknown>, TemplateRow>(`SELECT * FROM templates WHERE ${WHERE} ORDER BY created_at, id LIMIT @limit OFFSET @offset`)
      .all({ ...params, limit: q.per_page, offset: offsetOf(q.page, q.per_page) })
      .map((r) => ({ id: r.id, title: r.title, description: r.description, created_at: isoZ(r.created_at), updated_at: isoZ(r.updated_at) }));
    return { items, total, page: q.page, perPage: q.per_page };
  }

  find(id: string): CatalogTemplate | null {
    const r = this.sql<[string], TemplateRow>('SELECT * FROM templates WHERE id = ?').get(id);
    if (!r) return null;
    return { ...r, questions: JSON.parse(r.questions) as Question[] };
  }

  /** Inserts new catalog templates and refreshes changed ones, keeping their first created_at. */
  upsertCatalog(templates: CatalogTemplate[]): void {
    const existing = this.sql<[string], TemplateRow>('SELECT * FROM templates WHERE id = ?');
    const insert = this.sql(
      `INSERT INTO templates(id, title, description, long_description, type, questions, instructions, created_at, updated_at)
       VALUES (@id, @title, @description, @long_description, @type, @questions, @instructions, @now, @now)`,
    );
    const update = this.sql(
      `UPDATE templates SET title=@title, description=@description, long_description=@long_description, type=@type, questions=@questions, instructions=@instructions, updated_at=@now WHERE id=@id`,
    );
    this.ctx.db.transaction(() => {
      for (const t of templates) {
        const row = {
          id: t.id,
          title: t.title,
          description: t.description,
          long_description: t.long_description ?? null,
          type: t.type,
          questions: JSON.stringify(t.questions),
          instructions: t.instructions ?? '',
          now: nowMicros(),
        };
        const old = existing.get(t.id);
        if (!old) insert.run(row);
        else if (
          old.title !== row.title || old.description !== row.description || old.long_description !== row.long_description ||
          old.type !== row.type || old.questions !== row.questions || old.instructions !== row.instructions
        ) update.run(row);
      }
    })();
  }
}
