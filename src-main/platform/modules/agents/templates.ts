import type { ServiceContext, Page } from '../../kernel/context.js';
import { offsetOf } from '../../kernel/context.js';
import type { Question } from '../../contract/agents.js';
import { isoZ, nowMicros } from '../../kernel/time.js';
import { TemplatesStore } from './store.js';
import { isObject, readStoredList } from '../../kernel/stored-json.js';

export interface CatalogTemplate {
  id: string;
  title: string;
  description: string;
  long_description?: string | null;
  type: 'chat' | 'image' | 'text' | 'video';
  questions: Question[];
  instructions?: string;
}

export interface ResourceItem {
  id: string;
  title: string;
  description: string;
  created_at: string;
  updated_at: string;
}

/** Templates (`/api/resources`): the read-only catalog shipped in resources/, refreshed at start-up. */
export class TemplatesService {
  private readonly store: TemplatesStore;

  constructor(ctx: ServiceContext) {
    this.store = new TemplatesStore(ctx.db);
  }

  list(q: { page: number; per_page: number; q?: string; type?: string }): Page<ResourceItem> {
    const filter = { type: q.type ?? null, q: q.q ? q.q.toLowerCase() : null };
    const { rows, total } = this.store.page(filter, q.per_page, offsetOf(q.page, q.per_page));
    const items = rows.map((r) => ({ id: r.id, title: r.title, description: r.description, created_at: isoZ(r.created_at), updated_at: isoZ(r.updated_at) }));
    return { items, total, page: q.page, perPage: q.per_page };
  }

  find(id: string): CatalogTemplate | null {
    const r = this.store.one(id);
    if (!r) return null;
    return { ...r, questions: readStoredList<Question>(r.questions, { column: 'templates.questions', id: r.id }, isObject) };
  }

  /** Inserts new catalog templates and refreshes changed ones, keeping their first created_at. */
  upsertCatalog(templates: CatalogTemplate[]): void {
    this.store.transaction(() => {
      for (const t of templates) {
        const row = {
          id: t.id,
          title: t.title,
          description: t.description,
          long_description: t.long_description ?? null,
          type: t.type,
          questions: JSON.stringify(t.questions),
          instructions: t.instructions ?? '',
        };
        const old = this.store.one(t.id);
        if (!old) this.store.insert(row, nowMicros());
        else if (
          old.title !== row.title || old.description !== row.description || old.long_description !== row.long_description ||
          old.type !== row.type || old.questions !== row.questions || old.instructions !== row.instructions
        ) this.store.update(row, nowMicros());
      }
    });
  }
}
