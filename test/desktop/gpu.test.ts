import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KEY, makePlatform, tempDir } from '../api/helpers.js';

/** node-llama-cpp stand-in: getLlama records its options and answers with the backend a machine would have. */
const llamaStub = vi.hoisted(() => ({
  calls: [] as Record<string, unknown>[],
  available: new Set<string>(['cuda']),
  loadModelCalls: [] as Record<string, unknown>[],
  contextCalls: [] as Record<string, unknown>[],
}));
vi.mock('node-llama-cpp', () => ({
  LlamaLogLevel: { error: 'error' },
  getLlama: vi.fn(async (opts: { gpu: string | false }) => {
    llamaStub.calls.push(opts);
    let gpu: string | false = opts.gpu;
    if (gpu === 'auto') gpu = [...llamaStub.available][0] ?? false;
    else if (gpu !== false && !llamaStub.available.has(gpu)) throw new Error(`The prebuilt binary for "${gpu}" is not compatible with this machine`);
    return {
      gpu,
      loadModel: async (o: Record<string, unknown>) => {
        llamaStub.loadModelCalls.push(o);
        return {
          trainContextSize: 2048,
          tokenize: (t: string) => t.split(' '),
          createContext: async (c: Record<string, unknown>) => {
            llamaStub.contextCalls.push(c);
            return { getSequence: () => ({}), dispose: async () => {} };
          },
        };
      },
    };
  }),
  LlamaChat: class {
    async generateResponse(_h: unknown, o: { onTextChunk(t: string): void; onToken(t: number[]): void }) {
      o.onToken([1, 2]);
      o.onTextChunk('from the stub');
      return {};
    }
    dispose() {}
  },
}));

import { ggufEngineInfo, loadLlama, gpuLayersFor, resetGgufEngine } from '../../src-main/platform/engine/providers/gguf-engine.js';
import { GgufProvider } from '../../src-main/platform/engine/providers/gguf.js';

const dirs: string[] = [];
beforeEach(() => {
  resetGgufEngine();
  llamaStub.calls.length = 0;
  llamaStub.loadModelCalls.length = 0;
  llamaStub.contextCalls.length = 0;
  llamaStub.available = new Set(['cuda']);
});
afterEach(() => {
  delete process.env.AGENT_DESK_GPU;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('GPU for local GGUF models', () => {
  it('auto by default: the GPU node-llama-cpp finds, all layers on it, reported', async () => {
    expect(ggufEngineInfo()).toEqual({ gpu: 'auto', from_env: false, backend: null, note: null, restart_required: false });
    const { llama } = await loadLlama();
    expect(llamaStub.calls).toEqual([{ build: 'never', logLevel: 'error', gpu: 'auto' }]);
    expect(gpuLayersFor(llama)).toBe('auto');
    expect(ggufEngineInfo()).toMatchObject({ gpu: 'auto', backend: 'cuda', note: null });
  });

  it('auto on a machine without a usable GPU: the CPU, said so', async () => {
    llamaStub.available = new Set();
    const { llama } = await loadLlama();
    expect(gpuLayersFor(llama)).toBe(0);
    expect(ggufEngineInfo()).toMatchObject({ backend: 'cpu', note: 'no supported GPU found; using the CPU' });
  });

  it('AGENT_DESK_GPU=off: the CPU, no GPU asked for', async () => {
    process.env.AGENT_DESK_GPU = 'off';
    await loadLlama();
    expect(llamaStub.calls.map((c) => c.gpu)).toEqual([false]);
    expect(ggufEngineInfo()).toMatchObject({ gpu: 'off', from_env: true, backend: 'cpu', note: null });
  });

  it('a named backend this machine lacks falls back to the CPU with the reason', async () => {
    process.env.AGENT_DESK_GPU = 'vulkan';
    await loadLlama();
    expect(llamaStub.calls.map((c) => c.gpu)).toEqual(['vulkan', false]);
    expect(ggufEngineInfo()).toMatchObject({ gpu: 'vulkan', backend: 'cpu' });
    expect(ggufEngineInfo().note).toMatch(/^vulkan could not start here \(The prebuilt binary for "vulkan" is not compatible with this machine\); using the CPU$/);
  });

  it('a generation passes the GPU layers and an explicit CPU thread count', async () => {
    const dir = tempDir('agent-desk-gguf-');
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'tiny.gguf'), 'not read by the stub');
    const provider = new GgufProvider({ id: 'local', modelsDir: dir, threads: 3 });
    const events = [];
    for await (const e of provider.stream({ model: 'tiny', messages: [{ role: 'user', content: 'hi there' }], signal: new AbortController().signal })) events.push(e);
    expect(events[0]).toEqual({ type: 'text', text: 'from the stub' });
    expect(llamaStub.loadModelCalls).toEqual([{ modelPath: path.join(dir, 'tiny.gguf'), gpuLayers: 'auto' }]);
    expect(llamaStub.contextCalls[0]).toMatchObject({ threads: 3, contextSize: 2048 });
  });

  it('GET /api/app reports it; PUT /api/settings/gpu stores the choice (applied on the next start once the engine runs); bad values are 422', async () => {
    const p = makePlatform();
    dirs.push(p.dir);
    try {
      const auth = { authorization: `Bearer ${KEY}`, host: '127.0.0.1:8787' };
      const info = async () => ((await (await p.app.request('/api/app', { headers: auth })).json()) as { gpu: unknown }).gpu;
      expect(await info()).toEqual({ gpu: 'auto', from_env: false, backend: null, note: null, restart_required: false });
      await loadLlama();
      expect(await info()).toMatchObject({ backend: 'cuda' });

      const put = (body: unknown) => p.app.request('/api/settings/gpu', { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const res = await put({ gpu: 'off' });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ gpu: 'off', from_env: false, backend: 'cuda', note: null, restart_required: true });
      expect(p.services.settings.get('engine.gpu', null)).toBe('off');

      const bad = await put({ gpu: 'opencl' });
      expect(bad.status).toBe(422);
      expect(((await bad.json()) as { errors: Record<string, string[]> }).errors.gpu).toBeDefined();

      process.env.AGENT_DESK_GPU = 'metal';
      expect(await info()).toMatchObject({ gpu: 'metal', from_env: true });
    } finally {
      await p.close();
    }
  });

  it('the stored setting applies at the next start', async () => {
    const p = makePlatform();
    dirs.push(p.dir);
    p.services.settings.set('engine.gpu', 'off');
    await p.close();
    resetGgufEngine();
    const again = makePlatform({ dataDir: p.dir });
    try {
      await loadLlama();
      expect(llamaStub.calls.at(-1)?.gpu).toBe(false);
      expect(ggufEngineInfo()).toMatchObject({ gpu: 'off', backend: 'cpu' });
    } finally {
      await again.close();
    }
  });
});
