import fs from 'node:fs';
import path from 'node:path';
import type { ServiceContext } from '../../kernel/context.js';
import type { SettingsService } from '../../kernel/settings.js';
import type { SecretBox } from '../../kernel/secrets.js';
import { ValidationError } from '../../kernel/errors.js';
import type { ProviderInput, ProviderKind, ProviderSave, ProvidersSettings, ProvidersUpdate, ProviderTestResult, ProviderView, RouteRule } from '../../contract/settings.js';
import type { ModelProvider } from '../../engine/providers/types.js';
import { ProviderError } from '../../engine/providers/types.js';
import { streamLimitsFromEnv, type StreamLimits } from '../../engine/providers/stream-limits.js';
import { OpenAICompatibleProvider } from '../../engine/providers/openai-compatible.js';
import { AnthropicProvider } from '../../engine/providers/anthropic.js';
import { GgufProvider, ggufFileFor } from '../../engine/providers/gguf.js';
import { contextWindowOf, setupHint } from '../../engine/models.js';
import { ModelCatalog, type CatalogEntry, type ProviderListing } from './catalog.js';
import { PROVIDER_URLS } from '../../contract/provider-urls.js';
import { keepSecretOnlyWhereEntered } from '../../kernel/kept-secret.js';
import { noTrailingSlash } from '../../kernel/trim.js';
import { say } from '../../contract/messages.js';

declare module '../../kernel/settings.js' {
  interface SettingsMap {
    'providers.list': StoredProvider[];
    'providers.routes': RouteRule[] | null;
    'providers.search': StoredSearch | null;
    'providers.disabled': string[];
    'providers.default_model': string | null;
  }
}

/** A provider as stored in settings (`providers.list`); the key is sealed with the platform's SecretBox. */
interface StoredProvider {
  id: string;
  kind: ProviderKind;
  label: string | null;
  base_url: string | null;
  api_key_sealed: string | null;
  models_dir: string | null;
  enabled: boolean;
  context_window: number | null;
  source: 'settings' | 'env' | 'auto';
}

interface StoredSearch {
  searxng_url: string | null;
  brave_key_sealed: string | null;
  source?: 'settings' | 'env';
}

export interface SearchConfig {
  searxngUrl: string | null;
  braveApiKey: string | null;
  /** AGENT_DESK_FETCH_ALLOW_PRIVATE=1: fetch_page may reach loopback and private addresses */
  allowPrivateFetch: boolean;
}

/**
 * Defaults: vendor prefixes go to their vendor; GGUF names to the local engine; anything else to
 * the first available of the catch-all group (an OpenAI-compatible server, then Ollama).
 * Rules with the same `match` form a group: the first available provider of the first matching
 * group answers; a matching group with none available means "model unavailable".
 */
export const DEFAULT_ROUTES: RouteRule[] = [
  { match: 'claude-*', provider: 'anthropic' },
  { match: 'gpt-*', provider: 'openai' },
  { match: 'chatgpt-*', provider: 'openai' },
  { match: 'o1*', provider: 'openai' },
  { match: 'o3*', provider: 'openai' },
  { match: 'o4*', provider: 'openai' },
  { match: 'dall-e-*', provider: 'openai' },
  { match: '*.gguf', provider: 'local' },
  { match: '*', provider: 'openai' },
  { match: '*', provider: 'ollama' },
  { match: '*', provider: 'local' },
];

export function matches(pattern: string, model: string): boolean {
  if (pattern === '*') return true;
  const m = model.toLowerCase();
  const p = pattern.toLowerCase();
  if (p.endsWith('*') && !p.startsWith('*')) return m.startsWith(p.slice(0, -1));
  if (p.startsWith('*') && !p.endsWith('*')) return m.endsWith(p.slice(1));
  if (p.startsWith('*') && p.endsWith('*')) return m.includes(p.slice(1, -1));
  return m === p;
}

/** No provider can serve a model: the execution fails with this code and a how-to message. */
export class ModelUnavailableError extends ProviderError {
  constructor(model: string, detail?: string) {
    super(
      `No provider is configured for model ${model}.${detail ? ` ${detail}` : ''} Add one in Settings → Providers, or ${setupHint(model)}.`,
      'model_unavailable',
    );
  }
}

function ollamaV1(url: string): string {
  const u = noTrailingSlash(url);
  return u.endsWith('/v1') ? u : `${u}/v1`;
}

/** Where a provider's key is sent: its base URL, else its kind's default (a GGUF folder sends it nowhere). */
function destinationOf(p: { kind: ProviderKind; base_url: string | null }): string | null {
  if (p.kind === 'gguf') return null;
  const url = p.base_url ?? (p.kind === 'ollama' ? ollamaV1(PROVIDER_URLS.ollama) : p.kind === 'anthropic' ? PROVIDER_URLS.anthropic : PROVIDER_URLS.openai);
  return noTrailingSlash(url);
}

/**
 * Model providers: configuration (settings, seeded from env, Ollama auto-detected), routing of a
 * model name to a provider, and providers registered at run time (e.g. the remote platform).
 */
export class ProvidersService {
  private auto: StoredProvider[] = [];
  /** What the environment configures this run (restored when a saved override is removed). */
  private envSeeds: StoredProvider[] = [];
  private readonly registered = new Map<string, { provider: ModelProvider; routes: string[] }>();
  private readonly instances = new Map<string, { sig: string; provider: ModelProvider }>();
  /** Resolves when the start-up Ollama probe has finished (tests and Settings may await it). */
  readonly detected: Promise<void>;

  private readonly ollamaProbe: string;
  private readonly idleTimeoutMs: number | undefined;
  /** every stream's deadline and idle limit (AGENT_DESK_PROVIDER_DEADLINE_S, ..._IDLE_TIMEOUT_S) */
  private readonly streamLimits: StreamLimits;
  /** What each provider lists right now (cached briefly): routing and the default model read it. */
  readonly catalog: ModelCatalog;
  /** The app's own models folder (downloads land here); served as the `local` provider when no GGUF provider is configured. */
  readonly modelsFolder: string;

  private readonly notForChat: (fileName: string) => boolean;
  constructor(
    private readonly ctx: ServiceContext,
    private readonly settings: SettingsService,
    private readonly secrets: SecretBox,
    opts: {
      ollamaProbeUrl?: string;
      catalog?: ConstructorParameters<typeof ModelCatalog>[0];
      /** Model files that are not for chat (search models): the models module knows them, given by the composition root. */
      notForChat?: (fileName: string) => boolean;
    } = {},
  ) {
    this.ollamaProbe = opts.ollamaProbeUrl ?? PROVIDER_URLS.ollama;
    this.notForChat = opts.notForChat ?? (() => false);
    // Silence after which a streaming provider is given up on (default 120 s).
    const idle = Number(ctx.config.env.AGENT_DESK_PROVIDER_IDLE_TIMEOUT_S);
    this.idleTimeoutMs = Number.isFinite(idle) && idle > 0 ? idle * 1000 : undefined;
    this.streamLimits = streamLimitsFromEnv(ctx.config.env);
    this.catalog = new ModelCatalog(opts.catalog);
    this.modelsFolder = path.join(ctx.config.dataDir, 'models');
    this.seedFromEnv();
    this.detected = this.detectOllama();
  }

  private stored(): StoredProvider[] {
    return this.settings.get('providers.list', []);
  }

  private routes(): RouteRule[] {
    return this.settings.get('providers.routes', null) ?? DEFAULT_ROUTES;
  }

  /** Env seeds settings: entries that came from env follow it; entries the user saved are left alone. */
  private seedFromEnv(): void {
    const env = this.ctx.config.env;
    const seeds: StoredProvider[] = [];
    const base = { label: null, models_dir: null, enabled: true, context_window: null, source: 'env' as const, api_key_sealed: null, base_url: null };
    if (env.AGENT_DESK_OPENAI_BASE_URL || env.AGENT_DESK_OPENAI_API_KEY) {
      seeds.push({ ...base, id: 'openai', kind: 'openai-compatible', base_url: env.AGENT_DESK_OPENAI_BASE_URL || PROVIDER_URLS.openai, api_key_sealed: env.AGENT_DESK_OPENAI_API_KEY ? this.secrets.seal(env.AGENT_DESK_OPENAI_API_KEY) : null });
    }
    if (env.AGENT_DESK_ANTHROPIC_API_KEY) {
      seeds.push({ ...base, id: 'anthropic', kind: 'anthropic', base_url: env.AGENT_DESK_ANTHROPIC_BASE_URL || null, api_key_sealed: this.secrets.seal(env.AGENT_DESK_ANTHROPIC_API_KEY) });
    }
    if (env.AGENT_DESK_OLLAMA_URL) seeds.push({ ...base, id: 'ollama', kind: 'ollama', base_url: ollamaV1(env.AGENT_DESK_OLLAMA_URL) });
    if (env.AGENT_DESK_MODELS_DIR) seeds.push({ ...base, id: 'local', kind: 'gguf', models_dir: path.resolve(env.AGENT_DESK_MODELS_DIR) });
    this.envSeeds = seeds;
    const list = this.stored();
    let changed = false;
    for (const s of seeds) {
      const i = list.findIndex((p) => p.id === s.id);
      if (i < 0) list.push(s);
      else if (list[i].source === 'env' && this.sameEnvSeed(list[i], s)) continue;
      else if (list[i].source === 'env') list[i] = s;
      else continue;
      changed = true;
    }
    if (changed) this.settings.set('providers.list', list);
    this.forgetAll();
    const search = this.settings.get('providers.search', null);
    if ((env.AGENT_DESK_SEARXNG_URL || env.AGENT_DESK_BRAVE_API_KEY) && (!search || search.source === 'env')) {
      this.settings.set('providers.search', {
        searxng_url: env.AGENT_DESK_SEARXNG_URL || null,
        brave_key_sealed: env.AGENT_DESK_BRAVE_API_KEY ? this.secrets.seal(env.AGENT_DESK_BRAVE_API_KEY) : null,
        source: 'env',
      });
    }
  }

  private sameEnvSeed(a: StoredProvider, b: StoredProvider): boolean {
    const key = (p: StoredProvider) => JSON.stringify([p.kind, p.base_url, p.models_dir, p.api_key_sealed ? this.secrets.open(p.api_key_sealed) : null]);
    return key(a) === key(b);
  }

  /** Probes the default Ollama address briefly, in the background; never blocks start-up. */
  private async detectOllama(): Promise<void> {
    if (this.ctx.config.env.AGENT_DESK_OLLAMA_AUTODETECT === '0') return;
    if (this.stored().some((p) => p.kind === 'ollama' || p.id === 'ollama')) return;
    try {
      const res = await fetch(`${this.ollamaProbe}/api/version`, { signal: AbortSignal.timeout(800) });
      if (!res.ok) return;
      await res.body?.cancel();
      this.forgetAll();
      this.auto = [{ id: 'ollama', kind: 'ollama', label: 'Ollama (detected)', base_url: `${this.ollamaProbe}/v1`, api_key_sealed: null, models_dir: null, enabled: true, context_window: null, source: 'auto' }];
      this.ctx.log.info('Ollama detected at %s', this.ollamaProbe);
    } catch {}
  }

  /** Ids of environment or detected providers the user switched off (their config is not theirs to edit). */
  private disabledIds(): string[] {
    return this.settings.get('providers.disabled', []);
  }

  /**
   * all() within one synchronous run: routing an execution reads it several times (serves, resolve,
   * listedBy, byId), each a settings read and a look at the models folder. Forgotten at the end of
   * the run (a microtask) and by this service's own writes, so no later read sees an older answer.
   */
  private allOfRun: StoredProvider[] | null = null;

  private forgetAll(): void {
    this.allOfRun = null;
  }

  private all(): StoredProvider[] {
    if (this.allOfRun) return this.allOfRun;
    const all = this.readAll();
    this.allOfRun = all;
    queueMicrotask(() => {
      if (this.allOfRun === all) this.allOfRun = null;
    });
    return all;
  }

  private readAll(): StoredProvider[] {
    const list = this.stored();
    const off = new Set(this.disabledIds());
    const auto = [...this.auto, ...this.appFolder(list)];
    return [...list, ...auto.filter((a) => !list.some((p) => p.id === a.id))].map((p) => (p.source !== 'settings' && off.has(p.id) ? { ...p, enabled: false } : p));
  }

  /** The app's models folder as the `local` provider, once it holds a GGUF file and no GGUF provider is configured. */
  private appFolder(list: StoredProvider[]): StoredProvider[] {
    if (list.some((p) => p.kind === 'gguf' || p.id === 'local') || !listGguf(this.modelsFolder).length) return [];
    return [{ id: 'local', kind: 'gguf', label: 'Models folder', base_url: null, api_key_sealed: null, models_dir: this.modelsFolder, enabled: true, context_window: null, source: 'auto' }];
  }

  /** Every folder GGUF files are read from: the enabled GGUF providers' folders, then the app's own. */
  ggufFolders(): string[] {
    const dirs = this.all().flatMap((p) => (p.kind === 'gguf' && p.enabled && p.models_dir ? [p.models_dir] : []));
    return [...new Set([...dirs, this.modelsFolder])];
  }

  /** Where downloaded GGUF files go: the first enabled GGUF provider's folder, else the app's own. */
  downloadsFolder(): string {
    return this.all().find((p) => p.kind === 'gguf' && p.enabled && p.models_dir)?.models_dir ?? this.modelsFolder;
  }

  /** Every enabled provider that can list models, in settings order (registered ones last). */
  private entries(): CatalogEntry[] {
    const out: CatalogEntry[] = this.all()
      .filter((p) => p.enabled)
      .map((p) => ({ id: p.id, kind: p.kind, base_url: p.base_url, sig: JSON.stringify(p), provider: this.instance(p) }));
    for (const { provider } of this.registered.values()) {
      if (provider.listModels && !out.some((e) => e.id === provider.id)) out.push({ id: provider.id, kind: 'openai-compatible', base_url: null, sig: `registered:${provider.id}`, provider });
    }
    return out;
  }

  /** What each enabled provider lists now (cached briefly; `fresh` asks again). Never throws: a failed provider keeps its error. */
  listings(opts: { fresh?: boolean } = {}): Promise<ProviderListing[]> {
    return this.catalog.list(this.entries(), opts);
  }

  /** The provider whose last listing holds this model, first in settings order. */
  private listedBy(model: string): ModelProvider | null {
    for (const e of this.entries()) {
      if (this.catalog.cached(e.id, e.sig)?.models.some((m) => m.id === model)) return e.provider;
    }
    return null;
  }

  /** Whether a configured provider serves this model now (listed, or a GGUF file of that name). */
  serves(model: string): boolean {
    if (this.listedBy(model)) return true;
    return this.all().some((p) => p.kind === 'gguf' && p.enabled && !!p.models_dir && ggufFileFor(p.models_dir, model) !== null);
  }

  /**
   * Before an execution's answers are checked: when its model is none of the agent's options
   * (a listed model) or is left out (the default model applies), the listings must be known.
   * A model among the options needs no round trip.
   */
  async prepareFor(agent: { questions: { name: string; options?: string[] | null }[] }, model: unknown, override?: string): Promise<void> {
    const asked = override ?? model;
    const options = agent.questions.find((q) => q.name === 'model')?.options ?? [];
    if (typeof asked === 'string' && asked && options.includes(asked)) return;
    // A named model outside the options is accepted only if listed: a set default model is no
    // reason to skip the listing (a schedule's first run after a start names a listed model).
    if (typeof asked === 'string' && asked && !this.serves(asked)) {
      await this.listings();
      return;
    }
    await this.ready();
  }

  /**
   * Resolves once routing and the default model can read a listing of every enabled provider:
   * at once when a default model is set or listings are cached (a stale one is refreshed in the
   * background), else after the providers answered or timed out.
   */
  async ready(): Promise<void> {
    if (this.settings.get('providers.default_model', null)) return;
    const entries = this.entries();
    if (entries.every((e) => this.catalog.cached(e.id, e.sig))) {
      void this.listings();
      return;
    }
    await this.listings();
  }

  /** Registers a provider at run time (e.g. the remote platform); `routes` are match patterns tried first. Returns an unregister function. */
  register(provider: ModelProvider, opts: { routes?: string[] } = {}): () => void {
    this.registered.set(provider.id, { provider, routes: opts.routes ?? [] });
    return () => {
      if (this.registered.get(provider.id)?.provider === provider) this.registered.delete(provider.id);
    };
  }

  /** The provider instance for a configured or registered id, or null. */
  byId(id: string): ModelProvider | null {
    const reg = this.registered.get(id);
    if (reg) return reg.provider;
    const cfg = this.all().find((p) => p.id === id && p.enabled);
    return cfg ? this.instance(cfg) : null;
  }

  private instance(cfg: StoredProvider): ModelProvider {
    const sig = JSON.stringify(cfg);
    const hit = this.instances.get(cfg.id);
    if (hit && hit.sig === sig) return hit.provider;
    const provider = this.build(cfg);
    this.instances.set(cfg.id, { sig, provider });
    return provider;
  }

  private build(cfg: StoredProvider): ModelProvider {
    const apiKey = cfg.api_key_sealed ? this.secrets.open(cfg.api_key_sealed) : undefined;
    switch (cfg.kind) {
      case 'anthropic':
        return new AnthropicProvider({ id: cfg.id, apiKey: apiKey ?? '', baseUrl: cfg.base_url ?? undefined, idleTimeoutMs: this.idleTimeoutMs, limits: this.streamLimits });
      case 'gguf':
        return new GgufProvider({ id: cfg.id, modelsDir: cfg.models_dir ?? '', contextSize: cfg.context_window ?? undefined, log: this.ctx.log, limits: this.streamLimits });
      case 'ollama':
      case 'openai-compatible':
        return new OpenAICompatibleProvider({
          id: cfg.id,
          baseUrl: cfg.base_url ?? (cfg.kind === 'ollama' ? ollamaV1(PROVIDER_URLS.ollama) : PROVIDER_URLS.openai),
          apiKey,
          label: cfg.label ?? (cfg.kind === 'ollama' ? 'Ollama' : cfg.id === 'openai' ? 'the OpenAI-compatible provider' : `the provider "${cfg.id}"`),
          defaultContextWindow: cfg.context_window ?? undefined,
          idleTimeoutMs: this.idleTimeoutMs,
          limits: this.streamLimits,
        });
    }
  }

  /**
   * Routes a model name: registered providers' own patterns, then a GGUF file of that name in a
   * local models dir, then the route groups. Throws ModelUnavailableError with a how-to.
   */
  resolve(model: string): ModelProvider {
    for (const { provider, routes } of this.registered.values()) if (routes.some((r) => matches(r, model))) return provider;
    // A model that a provider lists goes to it before any pattern rule: a provider added in Settings is usable at once.
    const lister = this.listedBy(model);
    if (lister) return lister;
    for (const cfg of this.all()) {
      if (cfg.kind === 'gguf' && cfg.enabled && cfg.models_dir && ggufFileFor(cfg.models_dir, model)) return this.instance(cfg);
    }
    const rules = this.routes();
    const group = rules.find((r) => matches(r.match, model))?.match;
    if (group === undefined) throw new ModelUnavailableError(model);
    for (const r of rules.filter((x) => x.match === group)) {
      const p = this.byId(r.provider);
      if (!p) continue;
      // A local engine only serves files it has.
      if (p instanceof GgufProvider && !p.has(model)) continue;
      return p;
    }
    throw new ModelUnavailableError(model);
  }

  /** The user's default model; when unset, the first enabled provider's first listed model (null before any listing). */
  defaultModel(): string | null {
    return this.defaultModelOf().model;
  }

  defaultModelOf(): { model: string | null; provider: string | null; source: 'setting' | 'first_listed' | null } {
    const set = this.settings.get('providers.default_model', null);
    if (set) return { model: set, provider: null, source: 'setting' };
    for (const e of this.entries()) {
      // A search model in the models folder (the catalog's embedder or reranker) is never the default chat model.
      const first = this.catalog.cached(e.id, e.sig)?.models.find((m) => !(m.source === 'file' && this.notForChat(m.id)));
      if (first) return { model: first.id, provider: e.id, source: 'first_listed' };
    }
    return { model: null, provider: null, source: null };
  }

  search(): SearchConfig {
    const s = this.settings.get('providers.search', null);
    return {
      searxngUrl: s?.searxng_url ?? null,
      braveApiKey: s?.brave_key_sealed ? this.secrets.open(s.brave_key_sealed) : null,
      allowPrivateFetch: this.ctx.config.env.AGENT_DESK_FETCH_ALLOW_PRIVATE === '1',
    };
  }

  view(): ProvidersSettings {
    const toView = (p: StoredProvider): ProviderView => ({
      id: p.id,
      kind: p.kind,
      label: p.label,
      base_url: p.base_url,
      models_dir: p.models_dir,
      has_api_key: !!p.api_key_sealed,
      enabled: p.enabled,
      context_window: p.context_window,
      source: p.source,
    });
    const registered: ProviderView[] = [...this.registered.values()].map(({ provider }) => ({
      id: provider.id, kind: 'openai-compatible', label: null, base_url: null, models_dir: null, has_api_key: false, enabled: true, context_window: null, source: 'registered',
    }));
    const s = this.settings.get('providers.search', null);
    return {
      providers: [...this.all().map(toView), ...registered],
      routes: this.routes(),
      default_model: this.defaultModel(),
      search: { searxng_url: s?.searxng_url ?? null, brave_has_api_key: !!s?.brave_key_sealed, configured: !!(s?.searxng_url || s?.brave_key_sealed) },
      secrets_encrypted: this.secrets.encrypted,
    };
  }

  /**
   * `at` names where the input sits in the request body (`providers.2`, `provider`, or '' at the
   * top), for the field of a 422.
   */
  private fromInput(input: ProviderInput, prev: StoredProvider | undefined, at = 'providers'): StoredProvider {
    if (input.kind === 'gguf' && !input.models_dir) throw ValidationError.field('providers', say.required('models_dir', `for the GGUF provider "${input.id}"`));
    if (input.kind === 'anthropic' && input.api_key === undefined && !prev?.api_key_sealed) throw ValidationError.field('providers', say.required('api_key', `for the Anthropic provider "${input.id}"`));
    // A server's address is what such a provider is: never guessed (an empty one meant api.openai.com).
    // A provider saved without one before keeps working as it was.
    const needsUrl = input.kind === 'openai-compatible' || input.kind === 'ollama';
    if (needsUrl && !input.base_url && !(prev && prev.kind === input.kind && !prev.base_url)) {
      throw ValidationError.field(at ? `${at}.base_url` : 'base_url', say.required('base url', `for the ${input.kind === 'ollama' ? 'Ollama' : 'OpenAI-compatible'} provider "${input.id}"`));
    }
    const sealed = input.api_key === undefined ? (prev?.api_key_sealed ?? null) : input.api_key ? this.secrets.seal(input.api_key) : null;
    const next: StoredProvider = {
      id: input.id,
      kind: input.kind,
      label: input.label ?? null,
      base_url: input.base_url ? (input.kind === 'ollama' ? ollamaV1(input.base_url) : input.base_url) : null,
      api_key_sealed: sealed,
      models_dir: input.models_dir ? path.resolve(input.models_dir) : null,
      enabled: input.enabled ?? true,
      context_window: input.context_window ?? null,
      source: 'settings',
    };
    // A kept key goes only where it was entered for: a new destination needs the key entered again.
    const changed = destinationOf(next) === destinationOf(prev ?? next) ? null : (next.base_url ?? null) !== (prev?.base_url ?? null) || next.kind === prev?.kind ? 'base_url' : 'kind';
    keepSecretOnlyWhereEntered(
      { kept: !!prev?.api_key_sealed, given: input.api_key !== undefined, moved: changed && (at ? `${at}.${changed}` : changed) },
      () => `To change the ${changed === 'kind' ? 'kind' : 'base URL'} of the provider "${input.id}", enter its API key again: a stored key is only sent to the address it was entered for.`,
    );
    return next;
  }

  /**
   * PUT: `providers` replaces the saved providers; an omitted api_key keeps the stored key.
   * Environment and detected providers stay unless an entry with a `kind` names their id (a saved
   * override); `{id, enabled}` without `kind` switches one of them on or off.
   */
  update(body: ProvidersUpdate): ProvidersSettings {
    if (body.providers) this.saveList(body.providers);
    if (body.routes) this.settings.set('providers.routes', body.routes);
    if (body.default_model !== undefined) this.settings.set('providers.default_model', body.default_model);
    if (body.search) {
      const prev = this.settings.get('providers.search', null);
      const brave = body.search.brave_api_key;
      this.settings.set('providers.search', {
        searxng_url: body.search.searxng_url !== undefined ? body.search.searxng_url : (prev?.searxng_url ?? null),
        brave_key_sealed: brave === undefined ? (prev?.brave_key_sealed ?? null) : brave ? this.secrets.seal(brave) : null,
        source: 'settings',
      });
    }
    return this.view();
  }

  /** `at` names an entry's place in the request body, for the field of a 422. */
  private saveList(inputs: ProviderSave[], at: (i: number) => string = (i) => `providers.${i}`): void {
    const prev = this.stored();
    const envKept = [...prev.filter((p) => p.source === 'env'), ...this.envSeeds.filter((s) => !prev.some((p) => p.id === s.id && p.source === 'env'))];
    const outside = new Map([...this.auto, ...envKept].map((p) => [p.id, p]));
    const off = new Set(this.disabledIds());
    const saved: StoredProvider[] = [];
    inputs.forEach((p, i) => {
      if (p.kind !== undefined) {
        saved.push(this.fromInput({ ...p, kind: p.kind }, prev.find((x) => x.id === p.id), at(i)));
        off.delete(p.id);
        return;
      }
      const only = Object.keys(p).every((k) => k === 'id' || k === 'enabled');
      if (!outside.has(p.id) || !only) {
        throw ValidationError.field(
          `providers.${i}.kind`,
          outside.has(p.id)
            ? say.required('kind', `to change the provider "${p.id}" (without it, only enabled may be given)`)
            : say.field('kind', `is required: "${p.id}" is not a provider from the environment or auto-detection`),
        );
      }
      if (p.enabled === false) off.add(p.id);
      else if (p.enabled === true) off.delete(p.id);
    });
    this.ctx.db.transaction(() => {
      this.settings.set('providers.list', [...envKept.filter((e) => !saved.some((s) => s.id === e.id)), ...saved]);
      this.forgetAll();
      this.settings.set('providers.disabled', [...off]);
      this.forgetAll();
    })();
  }

  /**
   * Adds one provider to the saved ones (or replaces the saved one of the same id), keeping the
   * others and their keys: what the first-run setup does with one click.
   */
  add(input: ProviderInput): ProviderView {
    const keep: ProviderSave[] = this.stored()
      .filter((p) => p.source === 'settings' && p.id !== input.id)
      .map((p) => ({ id: p.id, kind: p.kind, label: p.label, base_url: p.base_url, models_dir: p.models_dir, enabled: p.enabled, context_window: p.context_window }));
    // The new entry's fields are the request's own (first-run setup): a 422 names them as such.
    this.saveList([...keep, input], (i) => (i === keep.length ? '' : `providers.${i}`));
    return this.view().providers.find((p) => p.id === input.id)!;
  }

  /** A provider's name for people (its label, else one by kind). */
  labelOf(id: string): string {
    const p = this.all().find((x) => x.id === id);
    if (p?.label) return p.label;
    if (!p) return id;
    if (p.kind === 'ollama') return 'Ollama';
    if (p.kind === 'anthropic') return 'Anthropic';
    if (p.kind === 'gguf') return id === 'local' ? 'Models folder' : `GGUF (${id})`;
    if (id === 'openai' && (p.base_url ?? '').includes(new URL(PROVIDER_URLS.openai).host)) return 'OpenAI';
    // A server set up from the environment has no label: name it by its address, as the first-run choice does, not by its id.
    const host = URL.canParse(p.base_url ?? '') ? new URL(p.base_url!).host : '';
    return host ? `Server at ${host}` : id;
  }

  /** The enabled OpenAI-compatible providers' addresses and keys, for calls beside chat (audio transcription). */
  openAIEndpoints(): { id: string; label: string; baseUrl: string; apiKey: string | null }[] {
    return this.all()
      .filter((p) => p.enabled && (p.kind === 'openai-compatible' || p.kind === 'ollama'))
      .map((p) => ({ id: p.id, label: this.labelOf(p.id), baseUrl: noTrailingSlash(p.base_url ?? PROVIDER_URLS.openai), apiKey: p.api_key_sealed ? this.secrets.open(p.api_key_sealed) : null }));
  }

  /** Context window of a model as its provider reports it, else the family's known one. */
  contextWindowFor(providerId: string, model: string): number {
    return this.byId(providerId)?.contextWindow?.(model) ?? contextWindowOf(model);
  }

  /** Reachability and model list of a saved provider, or of one given whole before saving. */
  async test(body: { id?: string; provider?: ProviderInput }, at = 'provider'): Promise<ProviderTestResult> {
    let p: ModelProvider | null;
    if (body.provider) p = this.build(this.fromInput(body.provider, this.all().find((x) => x.id === body.provider!.id), at));
    else {
      p = this.byId(body.id!);
      if (!p) throw ValidationError.field('id', say.invalid('id'));
    }
    const t0 = performance.now();
    try {
      const models = p.listModels ? await p.listModels(AbortSignal.timeout(8000)) : [];
      return { ok: true, models, error: null, latency_ms: Math.round(performance.now() - t0) };
    } catch (err) {
      const msg = (err as Error).name === 'TimeoutError' ? 'No answer within 8 s.' : (err as Error).message;
      return { ok: false, models: [], error: msg, latency_ms: Math.round(performance.now() - t0) };
    }
  }
}

/** Lists GGUF files of a folder (for Settings and the local engine). */
export function listGguf(dir: string): string[] {
  // Listed again only when the folder changed (a file added, removed or renamed changes its
  // modification time): routing looks at it on every execution, and a stat is one system call
  // where a listing is three (a missing folder is no exception either).
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(dir, { throwIfNoEntry: false });
  } catch {
    return [];
  }
  if (!st?.isDirectory()) return [];
  const known = listed.get(dir);
  if (known && known.mtimeMs === st.mtimeMs) return [...known.files];
  try {
    const files = fs.readdirSync(dir).filter((f) => f.toLowerCase().endsWith('.gguf'));
    if (listed.size >= 64) listed.clear();
    listed.set(dir, { mtimeMs: st.mtimeMs, files });
    return [...files];
  } catch {
    return [];
  }
}
const listed = new Map<string, { mtimeMs: number; files: string[] }>();

