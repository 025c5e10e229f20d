import { ProviderError } from './types.js';

/**
 * The in-process llama.cpp engine (node-llama-cpp), one per process, started on the first GGUF
 * request. GPU by default: `auto` lets node-llama-cpp pick Metal, CUDA or Vulkan where its
 * prebuilt binaries run on this machine, else the CPU. AGENT_DESK_GPU (auto|off|cuda|vulkan|metal)
 * wins over the app's setting; a named backend that cannot start falls back to the CPU, said so.
 */
export const GPU_CHOICES = ['auto', 'off', 'cuda', 'vulkan', 'metal'] as const;
export type GpuChoice = (typeof GPU_CHOICES)[number];
export type GpuBackend = 'cuda' | 'vulkan' | 'metal' | 'cpu';

export interface GgufEngineInfo {
  /** What is asked for (env, else the setting, else auto). */
  gpu: GpuChoice;
  /** Set by AGENT_DESK_GPU: the setting cannot change it. */
  from_env: boolean;
  /** The backend in use; null until a local model is first used. */
  backend: GpuBackend | null;
  /** Why the backend differs from the choice, or why the engine could not start. */
  note: string | null;
  /** The choice changed after the engine started: it applies on the next start of the app. */
  restart_required: boolean;
}

type LlamaModule = typeof import('node-llama-cpp');
type Llama = import('node-llama-cpp').Llama;

export const isGpuChoice = (v: unknown): v is GpuChoice => typeof v === 'string' && (GPU_CHOICES as readonly string[]).includes(v);
const envChoice = (): GpuChoice | null => {
  const v = process.env.AGENT_DESK_GPU?.trim().toLowerCase();
  return isGpuChoice(v) ? v : null;
};

let setting: GpuChoice = 'auto';
let started: { choice: GpuChoice; backend: GpuBackend; note: string | null } | null = null;
let failure: string | null = null;
let llamaModule: Promise<LlamaModule> | null = null;
let llamaInstance: Promise<Llama> | null = null;

const currentChoice = (): GpuChoice => envChoice() ?? setting;

/** The app's stored setting (the environment still wins). */
export function setGpuSetting(choice: GpuChoice): void {
  setting = choice;
}

export function ggufEngineInfo(): GgufEngineInfo {
  const gpu = currentChoice();
  return {
    gpu,
    from_env: envChoice() !== null,
    backend: started?.backend ?? null,
    note: started?.note ?? failure,
    restart_required: started !== null && started.choice !== gpu,
  };
}

/** node-llama-cpp is imported only when a GGUF model is first asked for, so the platform starts without it. */
export async function loadLlama(): Promise<{ mod: LlamaModule; llama: Llama }> {
  llamaModule ??= import('node-llama-cpp').catch((err) => {
    llamaModule = null;
    throw new ProviderError(`The local GGUF engine (node-llama-cpp) is not installed or cannot load here: ${(err as Error).message}`, 'model_unavailable');
  });
  const mod = await llamaModule;
  llamaInstance ??= startEngine(mod).catch((err) => {
    llamaInstance = null;
    failure = (err as Error).message;
    throw new ProviderError(`The local GGUF engine could not start: ${(err as Error).message}`, 'model_unavailable');
  });
  return { mod, llama: await llamaInstance };
}

async function startEngine(mod: LlamaModule): Promise<Llama> {
  const choice = currentChoice();
  const base = { build: 'never' as const, logLevel: mod.LlamaLogLevel.error };
  let llama: Llama;
  let note: string | null = null;
  try {
    llama = await mod.getLlama({ ...base, gpu: choice === 'off' ? false : choice });
  } catch (err) {
    if (choice === 'auto' || choice === 'off') throw err;
    note = `${choice} could not start here (${(err as Error).message.split('\n')[0]}); using the CPU`;
    llama = await mod.getLlama({ ...base, gpu: false });
  }
  const backend: GpuBackend = llama.gpu === false ? 'cpu' : llama.gpu;
  if (!note && choice === 'auto' && backend === 'cpu') note = 'no supported GPU found; using the CPU';
  started = { choice, backend, note };
  failure = null;
  return llama;
}

/** GPU layers for a model: all that fit (node-llama-cpp's `auto`) on a GPU, none on the CPU. */
export function gpuLayersFor(llama: Llama): 'auto' | 0 {
  return llama.gpu === false ? 0 : 'auto';
}

/** Tests: forget the engine so the next load starts it again. */
export function resetGgufEngine(): void {
  llamaModule = null;
  llamaInstance = null;
  started = null;
  failure = null;
  setting = 'auto';
}
