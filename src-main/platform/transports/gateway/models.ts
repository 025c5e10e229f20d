import type { TransportDeps } from '../deps.js';
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

/**
 * The models every enabled provider lists: the providers module's catalog (asked in parallel with
 * a short timeout, a provider that is down lists nothing, cached briefly per configuration), the
 * same listing that routing and the default model read.
 */
export function providerModelSource(p: TransportDeps): ProviderModelSource {
  return async () => (await p.services.providers.listings()).flatMap((l) => l.models.map((m) => ({ id: m.id, owned_by: l.provider })));
}

/** What a `model` string names: an agent (run as is), or a raw provider model run by the chat agent. */
export type ModelTarget = { kind: 'agent'; agent: Agent } | { kind: 'provider'; agent: Agent; model: string };

const unixSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

const PAGE = 100;

/** Every active agent the user can see, walking the service's pages. */
export function activeAgents(p: TransportDeps, userId: number): Agent[] {
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
export async function listModels(p: TransportDeps, userId: number, providers: ProviderModelSource): Promise<OpenAIModel[]> {
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
export async function resolveModel(p: TransportDeps, userId: number, model: string, providers: ProviderModelSource): Promise<ModelTarget> {
  const agent = p.services.agents.findBySlug(userId, model);
  if (agent && agent.active === 1) return { kind: 'agent', agent };
  const chat = p.services.agents.findBySlug(userId, DEFAULT_CHAT_SLUG);
  if (!chat || chat.active !== 1) throw modelNotFound(model);
  const options = chat.questions.find((q) => q.name === 'model')?.options ?? [];
  if (options.includes(model) || (await providers()).some((m) => m.id === model)) return { kind: 'provider', agent: chat, model };
  throw modelNotFound(model);
}

/** One model of `/v1/models`: an active agent by its slug, else a raw provider model (resolveModel's 404 otherwise). */
export async function retrieveModel(p: TransportDeps, userId: number, model: string, providers: ProviderModelSource): Promise<OpenAIModel> {
  const target = await resolveModel(p, userId, model, providers);
  if (target.kind === 'agent') return agentAsModel(target.agent);
  const listed = (await providers()).find((m) => m.id === model);
  return { id: model, object: 'model', created: 0, owned_by: listed?.owned_by ?? 'provider' };
}
