import type { Platform } from '../../platform.js';
import type { Agent } from '../../contract/agents.js';
import type { OpenAIModel } from '../../contract/openai.js';
import { modelNotFound } from './errors.js';

export const AGENT_OWNER = 'agent-desk';
/** The agent that runs a raw provider model named as `model` (CONTRACT.md: the seeded chat agent). */
export const DEFAULT_CHAT_SLUG = 'chat';

/** A raw model one configured provider serves. */
export interface ProviderModel {
  id: string;
  owned_by: string;
}

/** Where raw provider models come from (the configured providers' own model lists). */
export type ProviderModelSource = () => Promise<ProviderModel[]>;

const LIST_TIMEOUT_MS = 3000;
const CACHE_MS = 30_000;

/**
 * The models every enabled provider lists, asked in parallel with a short timeout (a provider that
 * is down lists nothing) and cached briefly, so resolving a `model` does not cost a round trip per
 * request. A change of provider settings invalidates the cache.
 */
export function providerModelSource(p: Platform): ProviderModelSource {
  let cache: { sig: string; at: number; models: Promise<ProviderModel[]> } | null = null;
  const load = async (ids: string[]): Promise<ProviderModel[]> => {
    const lists = await Promise.all(
      ids.map(async (id) => {
        const provider = p.services.providers.byId(id);
        if (!provider?.listModels) return [];
        try {
          return (await provider.listModels(AbortSignal.timeout(LIST_TIMEOUT_MS))).map((m) => ({ id: m, owned_by: id }));
        } catch (err) {
          p.log.debug({ err, provider: id }, 'listing provider models failed');
          return [];
        }
      }),
    );
    return lists.flat();
  };
  return () => {
    const views = p.services.providers.view().providers.filter((v) => v.enabled);
    const sig = JSON.stringify(views);
    if (!cache || cache.sig !== sig || Date.now() - cache.at > CACHE_MS) cache = { sig, at: Date.now(), models: load(views.map((v) => v.id)) };
    return cache.models;
  };
}

/** What a `model` string names: an agent (run as is), or a raw provider model run by the chat agent. */
export type ModelTarget = { kind: 'agent'; agent: Agent } | { kind: 'provider'; agent: Agent; model: string };

const unixSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

const PAGE = 100;

/** Every active agent the user can see, walking the service's pages. */
export function activeAgents(p: Platform, userId: number): Agent[] {
  const out: Agent[] = [];
  for (let page = 1; ; page++) {
    const res = p.services.agents.list(userId, { page, per_page: PAGE });
    out.push(...res.items.filter((a) => a.active === 1));
    if (page * PAGE >= res.total) return out;
  }
}

export const agentAsModel = (a: Agent): OpenAIModel => ({ id: a.slug, object: 'model', created: unixSeconds(a.created_at), owned_by: AGENT_OWNER });

/**
 * `/v1/models`: agents first (id = slug), then the providers' raw models that no agent slug
 * shadows (an agent slug wins a name clash, so a `model` string always means one thing).
 */
export async function listModels(p: Platform, userId: number, providers: ProviderModelSource): Promise<OpenAIModel[]> {
  const agents = activeAgents(p, userId).map(agentAsModel);
  const taken = new Set(agents.map((m) => m.id));
  const raw: OpenAIModel[] = [];
  for (const m of await providers()) {
    if (taken.has(m.id)) continue;
    taken.add(m.id);
    raw.push({ id: m.id, object: 'model', created: 0, owned_by: m.owned_by });
  }
  return [...agents, ...raw];
}

/**
 * Resolves a request's `model`: an active agent's slug, else a raw provider model (listed by a
 * provider, or one of the chat agent's model options), run by the default chat agent. Anything else
 * is OpenAI's 404 `model_not_found`, before any execution is made.
 */
export async function resolveModel(p: Platform, userId: number, model: string, providers: ProviderModelSource): Promise<ModelTarget> {
  const agent = p.services.agents.findBySlug(userId, model);
  if (agent && agent.active === 1) return { kind: 'agent', agent };
  const chat = p.services.agents.findBySlug(userId, DEFAULT_CHAT_SLUG);
  if (!chat || chat.active !== 1) throw modelNotFound(model);
  const options = chat.questions.find((q) => q.name === 'model')?.options ?? [];
  if (options.includes(model) || (await providers()).some((m) => m.id === model)) return { kind: 'provider', agent: chat, model };
  throw modelNotFound(model);
}
