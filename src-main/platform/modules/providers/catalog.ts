import type { ModelProvider } from '../../engine/providers/types.js';
import type { ProviderKind } from '../../contract/settings.js';
import { noTrailingSlash } from '../../kernel/trim.js';

/** One model a provider serves right now. */
export interface ListedModel {
  id: string;
  provider: string;
  /** `file`: a GGUF file in a models folder; `listed`: the provider's own model list */
  source: 'listed' | 'file';
}

/** What one provider answered when asked for its models. */
export interface ProviderListing {
  provider: string;
  ok: boolean;
  error: string | null;
  models: ListedModel[];
}

export interface CatalogEntry {
  id: string;
  kind: ProviderKind;
  /** the provider's configuration; a change invalidates its cached listing */
  sig: string;
  base_url: string | null;
  provider: ModelProvider;
}

interface Cached {
  sig: string;
  /** when `done` was answered */
  at: number;
  /** a listing in flight */
  pending: Promise<ProviderListing> | null;
  /** the last answer, kept while a refresh is in flight so routing never loses what it knew */
  done: ProviderListing | null;
}

const TIMEOUT_MS = 3000;
const TTL_MS = 30_000;

/** Ollama's own list (`/api/tags`) holds every pulled model, also those its /v1 list leaves out. */
async function ollamaTags(baseUrl: string, signal: AbortSignal): Promise<string[]> {
  const origin = noTrailingSlash(baseUrl).replace(/\/v1$/, '');
  const res = await fetch(`${origin}/api/tags`, { signal });
  if (!res.ok) throw new Error(`Ollama answered ${res.status} to /api/tags.`);
  const j = (await res.json()) as { models?: { name?: string; model?: string }[] };
  return (j.models ?? []).map((m) => m.name ?? m.model ?? '').filter(Boolean);
}

/**
 * The models each configured provider lists, asked in parallel with a short timeout and cached
 * briefly per provider configuration. A provider that does not answer lists nothing and keeps
 * its error, so one dead server never fails a listing.
 */
export class ModelCatalog {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly opts: { now?: () => number; ttlMs?: number; timeoutMs?: number } = {}) {}

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  private async ask(e: CatalogEntry): Promise<ProviderListing> {
    const signal = AbortSignal.timeout(this.opts.timeoutMs ?? TIMEOUT_MS);
    const source: ListedModel['source'] = e.kind === 'gguf' ? 'file' : 'listed';
    try {
      let ids: string[];
      if (e.kind === 'ollama' && e.base_url) {
        try {
          ids = await ollamaTags(e.base_url, signal);
        } catch {
          ids = e.provider.listModels ? await e.provider.listModels(signal) : [];
        }
      } else ids = e.provider.listModels ? await e.provider.listModels(signal) : [];
      const seen = new Set<string>();
      const models = ids.filter((id) => id && !seen.has(id) && seen.add(id)).map((id) => ({ id, provider: e.id, source }));
      return { provider: e.id, ok: true, error: null, models };
    } catch (err) {
      const msg = (err as Error).name === 'TimeoutError' ? `No answer within ${(this.opts.timeoutMs ?? TIMEOUT_MS) / 1000} s.` : (err as Error).message;
      return { provider: e.id, ok: false, error: msg, models: [] };
    }
  }

  /** Listings of these providers, in their order; `fresh` asks again whatever the cache holds. */
  async list(entries: CatalogEntry[], opts: { fresh?: boolean } = {}): Promise<ProviderListing[]> {
    const ttl = this.opts.ttlMs ?? TTL_MS;
    const live = new Set(entries.map((e) => e.id));
    for (const id of [...this.cache.keys()]) if (!live.has(id)) this.cache.delete(id);
    return Promise.all(
      entries.map((e) => {
        let slot = this.cache.get(e.id);
        if (!slot || slot.sig !== e.sig) {
          slot = { sig: e.sig, at: 0, pending: null, done: null };
          this.cache.set(e.id, slot);
        }
        if (slot.pending) return slot.pending;
        if (slot.done && !opts.fresh && this.now() - slot.at < ttl) return Promise.resolve(slot.done);
        const mine = slot;
        mine.pending = this.ask(e).then((l) => {
          mine.done = l;
          mine.at = this.now();
          mine.pending = null;
          return l;
        });
        return mine.pending;
      }),
    );
  }

  /** The last finished listing of a provider (for synchronous routing), if its configuration is unchanged. */
  cached(id: string, sig: string): ProviderListing | null {
    const hit = this.cache.get(id);
    return hit && hit.sig === sig ? hit.done : null;
  }

  /** Drops every listing (e.g. a download added a file to a models folder). */
  invalidate(): void {
    this.cache.clear();
  }
}
