import path from 'node:path';
import type { ServiceContext } from '../../kernel/context.js';
import { ValidationError } from '../../kernel/errors.js';
import type { ProvidersService } from '../providers/service.js';
import type { AgentsService } from '../agents/service.js';
import type { Agent } from '../../contract/agents.js';
import type { ProviderInput } from '../../contract/settings.js';
import type { DefaultModel, LocalServer, Model, ModelSource } from '../../contract/models.js';
import { PROVIDER_URLS } from '../../contract/provider-urls.js';
import { noTrailingSlash } from '../../kernel/trim.js';
import { say } from '../../contract/messages.js';
import { NOT_FOR_CHAT } from './curated.js';

/** The agent whose `model` options join the list when none is named: the seeded chat agent. */
const CHAT_SLUG = 'chat';
const PROBE_TIMEOUT_MS = 800;

const isLoopbackUrl = (raw: string): boolean => {
  try {
    const h = new URL(raw).hostname;
    return h === 'localhost' || h === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(h);
  } catch {
    return false;
  }
};

const origin = (raw: string | null) => (raw ? noTrailingSlash(raw).replace(/\/v1$/, '') : '');

/** What the first-run setup adds with one click. */
export type SetupInput =
  | { kind: 'ollama' | 'lmstudio' | 'openai-compatible'; base_url: string; api_key?: string | null }
  | { kind: 'anthropic'; api_key: string }
  | { kind: 'gguf'; models_dir: string };

/**
 * The models people have: what every configured provider serves now (OpenAI-compatible `/models`,
 * Ollama's tags, GGUF files), plus an agent's own `model` options that route to a configured
 * provider; the default model; model servers found on their usual localhost ports.
 */
export class ModelsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly providers: ProvidersService,
    private readonly agents: AgentsService,
  ) {}

  private optionsAgent(userId: number, agentId?: string): Agent | null {
    if (agentId !== undefined) return this.agents.get(userId, agentId);
    return this.agents.findBySlug(userId, CHAT_SLUG);
  }

  async list(userId: number, opts: { agentId?: string; fresh?: boolean } = {}): Promise<Model[]> {
    const agent = this.optionsAgent(userId, opts.agentId);
    const listings = await this.providers.listings({ fresh: opts.fresh });
    const out: Model[] = [];
    const seen = new Set<string>();
    for (const l of listings) {
      for (const m of l.models) {
        const key = `${l.provider}\u0000${m.id}`;
        if (seen.has(key) || (m.source === 'file' && NOT_FOR_CHAT.has(m.id.toLowerCase()))) continue;
        seen.add(key);
        out.push({ id: m.id, provider: l.provider, label: m.source === 'file' ? m.id.replace(/\.gguf$/i, '') : m.id, context_window: this.providers.contextWindowFor(l.provider, m.id), source: m.source });
      }
    }
    const byProvider = new Map(listings.map((l) => [l.provider, l]));
    const listed = new Set(out.map((m) => m.id));
    for (const option of agent?.questions.find((q) => q.name === 'model')?.options ?? []) {
      if (listed.has(option)) continue;
      let provider: string;
      try {
        provider = this.providers.resolve(option).id;
      } catch {
        continue;
      }
      // A provider that answered with its list has told us what it serves: an option it does not
      // list would only reach it through a catch-all rule and fail there.
      if (byProvider.get(provider)?.ok) continue;
      out.push({ id: option, provider, label: option, context_window: this.providers.contextWindowFor(provider, option), source: 'option' });
    }
    return out;
  }

  /** How each enabled provider answered its last listing. */
  async sources(): Promise<ModelSource[]> {
    const listings = await this.providers.listings();
    return listings.map((l) => ({ provider: l.provider, label: this.providers.labelOf(l.provider), ok: l.ok, error: l.error, count: l.models.length }));
  }

  async defaultModel(): Promise<DefaultModel> {
    await this.providers.ready();
    return this.providers.defaultModelOf();
  }

  /** Ollama and LM Studio on their usual localhost ports (overridable for tests, loopback only). */
  async localServers(): Promise<LocalServer[]> {
    const env = this.ctx.config.env;
    const probes = [
      { kind: 'ollama' as const, name: 'Ollama', url: env.AGENT_DESK_PROBE_OLLAMA_URL || PROVIDER_URLS.ollama },
      { kind: 'lmstudio' as const, name: 'LM Studio', url: env.AGENT_DESK_PROBE_LMSTUDIO_URL || PROVIDER_URLS.lmstudio },
    ];
    const configured = new Set(this.providers.view().providers.map((p) => origin(p.base_url)));
    return Promise.all(
      probes.map(async (p) => {
        const base = origin(p.url);
        const found = { kind: p.kind, name: p.name, url: p.kind === 'lmstudio' ? `${base}/v1` : base, found: false, models: [] as string[], configured: configured.has(base) };
        // Detection only ever looks at this computer.
        if (!isLoopbackUrl(base)) return found;
        try {
          const res = await fetch(p.kind === 'ollama' ? `${base}/api/tags` : `${base}/v1/models`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), redirect: 'manual' });
          if (!res.ok) {
            await res.body?.cancel();
            return found;
          }
          const j = (await res.json()) as { models?: { name?: string }[]; data?: { id?: string }[] };
          const models = p.kind === 'ollama' ? (j.models ?? []).map((m) => m.name ?? '') : (j.data ?? []).map((m) => m.id ?? '');
          return { ...found, found: true, models: models.filter(Boolean) };
        } catch {
          return found;
        }
      }),
    );
  }

  /**
   * First-run setup: checks that the provider answers, adds it (keeping the others), and answers
   * with what it serves and the default model, so the next message can run.
   */
  async setup(userId: number, input: SetupInput): Promise<{ provider: string; ok: boolean; error: string | null; models: Model[]; default: DefaultModel }> {
    const provider = this.providerInput(input);
    if (provider.base_url && !/^https?:\/\//i.test(provider.base_url)) throw ValidationError.field('base_url', say.must('base url', 'be an http or https URL'));
    // Asked before it is saved: a server that does not answer leaves the settings as they were.
    const probe = await this.providers.test({ provider }, '');
    if (!probe.ok) return { provider: provider.id, ok: false, error: probe.error, models: [], default: this.providers.defaultModelOf() };
    this.providers.add(provider);
    const listings = await this.providers.listings({ fresh: true });
    const mine = listings.find((l) => l.provider === provider.id);
    const models = (await this.list(userId)).filter((m) => m.provider === provider.id);
    return { provider: provider.id, ok: mine?.ok ?? false, error: mine?.error ?? null, models, default: this.providers.defaultModelOf() };
  }

  private providerInput(input: SetupInput): ProviderInput {
    switch (input.kind) {
      case 'ollama':
        return { id: 'ollama', kind: 'ollama', label: 'Ollama', base_url: input.base_url };
      case 'lmstudio':
        return { id: 'lmstudio', kind: 'openai-compatible', label: 'LM Studio', base_url: input.base_url };
      case 'openai-compatible': {
        let host = 'server';
        try {
          host = new URL(input.base_url).host;
        } catch {
          throw ValidationError.field('base_url', say.must('base url', 'be a valid URL'));
        }
        return { id: 'server', kind: 'openai-compatible', label: `Server at ${host}`, base_url: input.base_url, ...(input.api_key ? { api_key: input.api_key } : {}) };
      }
      case 'anthropic':
        return { id: 'anthropic', kind: 'anthropic', label: 'Anthropic', api_key: input.api_key };
      case 'gguf':
        // A GGUF file names its folder: every model in it becomes usable.
        return { id: 'local', kind: 'gguf', label: 'Models folder', models_dir: /\.gguf$/i.test(input.models_dir) ? path.dirname(input.models_dir) : input.models_dir };
    }
  }
}
