import { describe, expect, it } from 'vitest';
import { ModelCatalog, type CatalogEntry } from '../../src-main/platform/modules/providers/catalog.js';
import type { ModelProvider } from '../../src-main/platform/engine/providers/types.js';

/** A provider whose listing the test answers by hand. */
function provider(id: string) {
  const calls: { resolve(ids: string[]): void; reject(err: Error): void }[] = [];
  const p: ModelProvider = {
    id,
    stream: async function* () {},
    listModels: () => new Promise<string[]>((resolve, reject) => calls.push({ resolve, reject })),
  };
  return { p, calls };
}

const entry = (p: ModelProvider, sig = 'v1'): CatalogEntry => ({ id: p.id, kind: 'openai-compatible', sig, base_url: null, provider: p });
const flush = () => new Promise((r) => setImmediate(r));

describe('ModelCatalog (injected clock)', () => {
  it('caches per configuration, refreshes after the TTL, and keeps the last answer readable while a refresh is in flight', async () => {
    let now = 0;
    const cat = new ModelCatalog({ now: () => now, ttlMs: 1000 });
    const a = provider('a');
    const first = cat.list([entry(a.p)]);
    expect(cat.cached('a', 'v1')).toBeNull();
    a.calls[0].resolve(['llama-3.1-8b']);
    expect((await first)[0]).toEqual({ provider: 'a', ok: true, error: null, models: [{ id: 'llama-3.1-8b', provider: 'a', source: 'listed' }] });

    now = 999;
    await cat.list([entry(a.p)]);
    expect(a.calls).toHaveLength(1); // within the TTL: no new request

    now = 1000;
    const refresh = cat.list([entry(a.p)]);
    await flush();
    expect(a.calls).toHaveLength(2);
    // While the provider is being asked again, routing still reads what it listed.
    expect(cat.cached('a', 'v1')?.models.map((m) => m.id)).toEqual(['llama-3.1-8b']);
    a.calls[1].resolve(['llama-3.1-8b', 'qwen']);
    await refresh;
    expect(cat.cached('a', 'v1')?.models.map((m) => m.id)).toEqual(['llama-3.1-8b', 'qwen']);

    // A changed configuration is a new provider: nothing cached for it.
    expect(cat.cached('a', 'v2')).toBeNull();
  });

  it('a provider that fails keeps its error and lists nothing; the others are unaffected', async () => {
    const cat = new ModelCatalog({ now: () => 0 });
    const a = provider('a');
    const b = provider('b');
    const all = cat.list([entry(a.p), entry(b.p)]);
    a.calls[0].reject(new Error('connect ECONNREFUSED 127.0.0.1:1234'));
    b.calls[0].resolve(['m1', 'm1', '']);
    const [la, lb] = await all;
    expect(la).toEqual({ provider: 'a', ok: false, error: 'connect ECONNREFUSED 127.0.0.1:1234', models: [] });
    expect(lb.models.map((m) => m.id)).toEqual(['m1']); // duplicates and empty ids dropped
  });

  it('forgets providers no longer configured', async () => {
    const cat = new ModelCatalog({ now: () => 0 });
    const a = provider('a');
    const p = cat.list([entry(a.p)]);
    a.calls[0].resolve(['x']);
    await p;
    await cat.list([]);
    expect(cat.cached('a', 'v1')).toBeNull();
  });
});
