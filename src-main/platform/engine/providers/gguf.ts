import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../../kernel/log.js';
import type { GenerateRequest, ImageSupport, ModelProvider, ProviderEvent } from './types.js';
import { ProviderError } from './types.js';
import { AsyncQueue } from '../async-queue.js';
import { StreamGuard, type StreamLimits } from './stream-limits.js';
import { gpuLayersFor, loadLlama } from './gguf-engine.js';
import { ggufCalls, ggufFunctions, ggufHistory, offeredTools } from './gguf-tools.js';

export interface GgufOptions {
  id: string;
  modelsDir: string;
  /** Tokens of context per generation (default 4096, or less when the model was trained on less). */
  contextSize?: number;
  /** CPU threads per generation; ggml's threads spin while waiting, so more than the idle cores slows everything down. */
  threads?: number;
  log?: Logger;
  /** deadline and text cap of each generation (stream-limits.ts); in-process there is no idle limit */
  limits?: StreamLimits;
}

const defaultThreads = () => Math.max(1, Math.min(8, os.availableParallelism() - 1));

/** The GGUF file in `dir` that a model name means (`name` or `name.gguf`), or null. Never leaves `dir`. */
export function ggufFileFor(dir: string, model: string): string | null {
  if (!dir || !model || model.includes('/') || model.includes('\\') || model.startsWith('.')) return null;
  for (const name of model.toLowerCase().endsWith('.gguf') ? [model] : [`${model}.gguf`, model]) {
    const file = path.join(dir, name);
    if (!name.toLowerCase().endsWith('.gguf')) continue;
    try {
      if (fs.statSync(file).isFile()) return file;
    } catch {}
  }
  return null;
}

/**
 * Runs GGUF files from a folder in-process with node-llama-cpp (fully offline). Models load
 * lazily on first use and stay loaded; generations of one model run one at a time.
 */
export class GgufProvider implements ModelProvider {
  readonly id: string;
  private readonly models = new Map<string, Promise<import('node-llama-cpp').LlamaModel>>();
  private chain = Promise.resolve();

  constructor(private readonly opts: GgufOptions) {
    this.id = opts.id;
  }

  has(model: string): boolean {
    return ggufFileFor(this.opts.modelsDir, model) !== null;
  }

  contextWindow(): number {
    return this.opts.contextSize ?? 4096;
  }

  /** The in-process engine runs text models only. */
  imageSupport(): ImageSupport {
    return 'none';
  }

  async listModels(): Promise<string[]> {
    try {
      return fs.readdirSync(this.opts.modelsDir).filter((f) => f.toLowerCase().endsWith('.gguf'));
    } catch (err) {
      throw new ProviderError(`Cannot read the models folder ${this.opts.modelsDir}: ${(err as Error).message}`, 'provider_unreachable');
    }
  }

  private model(file: string) {
    let m = this.models.get(file);
    if (!m) {
      m = loadLlama().then(({ llama }) => llama.loadModel({ modelPath: file, gpuLayers: gpuLayersFor(llama) }));
      m.catch(() => this.models.delete(file));
      this.models.set(file, m);
    }
    return m;
  }

  stream(req: GenerateRequest): AsyncIterable<ProviderEvent> {
    const q = new AsyncQueue<ProviderEvent>();
    // One generation at a time per provider: a CPU engine gains nothing from interleaving.
    // The deadline starts with the generation, not while it waits its turn behind another.
    const guard = new StreamGuard(`the local model ${req.model}`, req.signal, { ...this.opts.limits, idleMs: Infinity }, { start: false });
    const run = this.chain.then(() => {
      guard.start();
      return this.generate({ ...req, signal: guard.signal }, q);
    });
    this.chain = run.catch(() => {});
    run.catch((err) => q.fail(err));
    return guard.watch(q);
  }

  private async generate(req: GenerateRequest, q: AsyncQueue<ProviderEvent>): Promise<void> {
    const file = ggufFileFor(this.opts.modelsDir, req.model);
    if (!file) throw new ProviderError(`No GGUF file named ${req.model} in ${this.opts.modelsDir}.`, 'model_unavailable');
    if (req.signal.aborted) throw req.signal.reason ?? new DOMException('aborted', 'AbortError');
    const { mod } = await loadLlama();
    let model: import('node-llama-cpp').LlamaModel;
    try {
      model = await this.model(file);
    } catch (err) {
      if (err instanceof ProviderError) throw err;
      throw new ProviderError(`The local engine could not load ${path.basename(file)}: ${(err as Error).message}`, 'model_unavailable');
    }
    const trained = model.trainContextSize || 4096;
    const context = await model.createContext({ contextSize: Math.min(this.opts.contextSize ?? 4096, trained), threads: this.opts.threads ?? defaultThreads() });
    try {
      const chat = new mod.LlamaChat({ contextSequence: context.getSequence() });
      // Tool calls and their results ride in the model's turns (gguf-tools.ts).
      const history = ggufHistory(req.messages);
      history.push({ type: 'model', response: [] });
      let out = 0;
      const tools = offeredTools(req.tools, req.toolChoice);
      const res = await chat.generateResponse(history, {
        signal: req.signal,
        maxTokens: req.maxTokens ?? 1024,
        temperature: req.temperature,
        topP: req.topP,
        customStopTriggers: req.stop,
        functions: tools.length ? ggufFunctions(tools) : undefined,
        onToken: (tokens) => {
          out += tokens.length;
        },
        onTextChunk: (text) => {
          if (text) q.push({ type: 'text', text });
        },
      });
      const input = model.tokenize(req.messages.map((m) => m.content).join('\n')).length;
      q.push({ type: 'usage', inputTokens: input, outputTokens: out });
      if (res.functionCalls?.length) q.push({ type: 'tool_calls', calls: ggufCalls(res.functionCalls, req.messages.filter((m) => m.toolCalls?.length).length) });
      q.end();
      chat.dispose();
    } finally {
      await context.dispose();
    }
  }
}
