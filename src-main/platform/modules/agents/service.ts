import type { ServiceContext, Page } from '../../kernel/context.js';
import { offsetOf, parseId } from '../../kernel/context.js';
import { NotFoundError, ValidationError } from '../../kernel/errors.js';
import type { Agent, AgentCreate, AgentUpdate } from '../../contract/agents.js';
import type { Logger } from '../../kernel/log.js';
import { isoMicros, nowMicros } from '../../kernel/time.js';
import type { TemplatesService } from './templates.js';
import type { ToolServerRef } from '../../contract/tools.js';
import { AgentsStore, type AgentRow } from './store.js';
import { changeStamp, sameStamp, type Stamp } from '../../db/stamp-store.js';
import { deepFreeze } from '../../kernel/frozen.js';
import { storedMicros, storedQuestions, storedToolServers } from './stored.js';
import { trimEndOf, trimOf } from '../../kernel/trim.js';
import { say } from '../../contract/messages.js';

/** Checks an agent's `tool_servers` against the user's MCP servers (set by the tools module); returns 422 errors. */
export type ToolServersCheck = (userId: number, refs: ToolServerRef[]) => Record<string, string[]>;

const text = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : text(v));

/**
 * An agent as the API shows it, from its row. Never throws on a stored value (stored.ts): a
 * damaged column is read as what is valid of it, and named to `onDamaged`.
 */
export function toAgent(r: AgentRow, onDamaged?: (columns: string[]) => void): Agent {
  const questions = storedQuestions(r.questions);
  const toolServers = storedToolServers(r.tool_servers);
  if (onDamaged && (questions.damaged || toolServers.damaged)) onDamaged([...(questions.damaged ? ['questions'] : []), ...(toolServers.damaged ? ['tool_servers'] : [])]);
  return {
    id: r.id,
    title: text(r.title),
    description: textOrNull(r.description),
    long_description: textOrNull(r.long_description),
    workspace_id: r.workspace_id,
    visibility: text(r.visibility),
    slug: text(r.slug),
    active: r.active === 0 ? 0 : 1,
    type: r.type,
    questions: questions.value,
    created_at: isoMicros(storedMicros(r.created_at)),
    updated_at: isoMicros(storedMicros(r.updated_at)),
    created_by: r.created_by,
    instructions: text(r.instructions),
    source: r.source === 'remote' ? 'remote' : 'local',
    share_context: r.share_context === 1,
    tool_servers: toolServers.value,
  };
}

export function slugify(title: string): string {
  const s = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  return trimEndOf(trimOf(s, '-').slice(0, 80), '-') || 'agent';
}

export class AgentsService {
  private readonly store: AgentsStore;
  /**
   * get() is the hot read (every execution, GET /api/agents/{id}): agents mapped from their rows,
   * reused while the row's updated_at is unchanged. Every write to an agent sets updated_at to a
   * new nowMicros(), so a changed row never matches; a deleted one is not found by versionOf.
   */
  private readonly cache = new Map<number, { version: number; agent: Agent; seenBy?: number; stamp?: Stamp }>();
  /**
   * While the database is unchanged (its stamp), a cached agent is served again to the user who
   * last read it without any query: GET /api/agents/{id} then costs about what a bare router does.
   */
  private readonly stamp: () => Stamp;
  /** What a slug found for a user at a stamp: an agent id, or null for none (a raw model's name). */
  private readonly slugs = new Map<string, { id: number | null; userId: number; stamp: Stamp }>();
  /** set by the tools module: validates `tool_servers` */
  toolServersCheck: ToolServersCheck | null = null;
  private readonly log: Logger;
  /** Rows (id@updated_at) already logged as damaged: a list read again does not log them again. */
  private readonly loggedDamage = new Set<string>();

  private checkToolServers(userId: number, refs: ToolServerRef[]): void {
    const errors = this.toolServersCheck?.(userId, refs) ?? {};
    if (Object.keys(errors).length) throw new ValidationError(errors);
  }

  constructor(
    ctx: ServiceContext,
    private readonly templates: TemplatesService,
  ) {
    this.store = new AgentsStore(ctx.db);
    this.stamp = changeStamp(ctx.db);
    this.log = ctx.log;
  }

  /** toAgent, logging a damaged row once per version. */
  private read(r: AgentRow): Agent {
    return toAgent(r, (columns) => {
      const key = `${r.id}@${String(r.updated_at)}`;
      if (this.loggedDamage.has(key)) return;
      if (this.loggedDamage.size >= 1000) this.loggedDamage.clear();
      this.loggedDamage.add(key);
      this.log.warn({ agent: r.id, columns }, 'A stored agent has damaged columns; they are read without their invalid entries.');
    });
  }

  list(userId: number, q: { page: number; per_page: number; q?: string; type?: string }): Page<Agent> {
    const filter = { userId, type: q.type ?? null, q: q.q ? q.q.toLowerCase() : null };
    const { rows, total } = this.store.page(filter, q.per_page, offsetOf(q.page, q.per_page));
    return { items: rows.map((r) => this.read(r)), total, page: q.page, perPage: q.per_page };
  }

  /** The agent (frozen: shared through the cache), or 404 `Agent not found`. */
  get(userId: number, rawId: string | number): Agent {
    const id = parseId(rawId);
    // Taken before the reads below: a commit after it changes the stamp, so the next get looks again.
    const stamp = this.stamp();
    const hit = id ? this.cache.get(id) : undefined;
    if (hit && hit.seenBy === userId && sameStamp(hit.stamp, stamp)) return hit.agent;
    const version = id ? this.store.version(userId, id) : undefined;
    if (!id || version === undefined) throw new NotFoundError('Agent not found');
    if (hit && hit.version === version) {
      hit.seenBy = userId;
      hit.stamp = stamp;
      return hit.agent;
    }
    return this.cached(userId, this.row(userId, id), stamp);
  }

  /** The agent of a row just read, through the cache: mapped (its JSON parsed and checked) once per version. */
  private cached(userId: number, row: AgentRow, stamp: Stamp): Agent {
    const hit = this.cache.get(row.id);
    if (hit && hit.version === row.updated_at) {
      hit.seenBy = userId;
      hit.stamp = stamp;
      return hit.agent;
    }
    // Frozen: the cache shares it with every caller, so none may change it.
    const agent = deepFreeze(this.read(row));
    if (this.cache.size >= 1000) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(row.id, { version: row.updated_at, agent, seenBy: userId, stamp });
    return agent;
  }

  row(userId: number, rawId: string | number): AgentRow {
    const id = parseId(rawId);
    const row = id ? this.store.visible(userId, id) : undefined;
    if (!row) throw new NotFoundError('Agent not found');
    return row;
  }

  /** A visible agent by its slug (slugs are unique), or null: OpenAI `model` names and MCP tools name agents so. */
  findBySlug(userId: number, slug: string): Agent | null {
    // Every /v1 request names its model so (an agent, or a raw model run by the chat agent): while
    // the database is unchanged, the answer found for the slug is the answer.
    const stamp = this.stamp();
    const seen = this.slugs.get(slug);
    if (seen && seen.userId === userId && sameStamp(seen.stamp, stamp)) {
      if (seen.id === null) return null;
      const hit = this.cache.get(seen.id);
      if (hit && hit.seenBy === userId && sameStamp(hit.stamp, stamp)) return hit.agent;
    }
    const row = this.store.visibleBySlug(userId, slug);
    if (this.slugs.size >= 1000) this.slugs.delete(this.slugs.keys().next().value!);
    this.slugs.set(slug, { id: row?.id ?? null, userId, stamp });
    return row ? this.cached(userId, row, stamp) : null;
  }

  private uniqueSlug(base: string, exceptId?: number): string {
    let slug = base;
    for (let n = 2; this.store.slugTaken(slug, exceptId); n++) slug = `${base}-${n}`;
    return slug;
  }

  create(userId: number, workspaceId: number, body: AgentCreate): Agent {
    const tpl = body.template_id !== undefined ? this.templates.find(body.template_id) : null;
    if (body.template_id !== undefined && !tpl) throw ValidationError.field('template_id', say.invalid('template id'));
    const title = body.title ?? tpl?.title;
    if (!title) throw ValidationError.field('title', say.required('title'));
    if (body.slug && this.store.slugTaken(body.slug)) {
      throw ValidationError.field('slug', 'The slug has already been taken.');
    }
    if (body.tool_servers?.length) this.checkToolServers(userId, body.tool_servers);
    const id = this.store.insert(
      {
        workspace_id: workspaceId,
        template_id: tpl?.id ?? null,
        title,
        description: body.description !== undefined ? body.description : (tpl?.description ?? null),
        long_description: body.long_description !== undefined ? body.long_description : (tpl?.long_description ?? null),
        visibility: body.visibility ?? 'public',
        slug: body.slug ?? this.uniqueSlug(slugify(title)),
        active: body.active ?? 1,
        type: body.type ?? tpl?.type ?? 'chat',
        questions: JSON.stringify(body.questions ?? tpl?.questions ?? []),
        instructions: body.instructions ?? tpl?.instructions ?? '',
        tool_servers: JSON.stringify(body.tool_servers ?? []),
        created_by: userId,
      },
      nowMicros(),
    );
    return this.get(userId, id);
  }

  update(userId: number, rawId: string, body: AgentUpdate): Agent {
    const row = this.row(userId, rawId);
    if (row.source === 'remote' && Object.keys(body).some((k) => k !== 'share_context' && (body as Record<string, unknown>)[k] !== undefined)) {
      throw ValidationError.field('id', 'A remote agent is edited on its own platform; import it to change it here (only share_context can be set).');
    }
    if (body.slug && body.slug !== row.slug && this.store.slugTaken(body.slug, row.id)) {
      throw ValidationError.field('slug', 'The slug has already been taken.');
    }
    const next = {
      title: body.title ?? row.title,
      description: body.description !== undefined ? body.description : row.description,
      long_description: body.long_description !== undefined ? body.long_description : row.long_description,
      visibility: body.visibility ?? row.visibility,
      slug: body.slug ?? row.slug,
      active: body.active ?? row.active,
      type: body.type ?? row.type,
      questions: body.questions ? JSON.stringify(body.questions) : row.questions,
      instructions: body.instructions ?? row.instructions,
      share_context: body.share_context === undefined ? row.share_context : body.share_context ? 1 : 0,
      tool_servers: body.tool_servers ? JSON.stringify(body.tool_servers) : (row.tool_servers ?? '[]'),
    };
    if (body.tool_servers?.length) this.checkToolServers(userId, body.tool_servers);
    this.store.update(row.id, next, nowMicros());
    return this.get(userId, row.id);
  }

  delete(userId: number, rawId: string): { id: number; deleted: boolean } {
    const row = this.row(userId, rawId);
    this.store.delete(row.id);
    return { id: row.id, deleted: true };
  }

  seed(userId: number, workspaceId: number, agents: (AgentCreate & { title: string })[]): void {
    for (const a of agents) this.create(userId, workspaceId, a);
  }
}
