import type { Agent } from '../contract/agents.js';
import type { ExecutionContext } from '../contract/executions.js';
import type { ChatMessage, ModelProvider } from './providers/types.js';
import { ProviderError } from './providers/types.js';
import { buildContext, type ContextSources } from './context.js';
import { countTokensSync, MAX_MESSAGE_CHARS, MAX_OUTPUT_CHARS } from './tokens.js';
import { contextWindowOf } from './models.js';
import { searchConfigured, webTools, type SearchBackend } from './tools/web.js';
import type { Turn } from './turn.js';
import { ToolLoop, type Toolbox } from './tool-loop.js';
import type { ToolStep } from '../contract/tools.js';
import { mark } from '../kernel/first-token-marks.js';
import { clientChoice, clientMessages, clientToolSpecs, handBack, type ClientRequest } from './client-tools.js';

/** Per-call generation settings (the OpenAI-compatible API passes a request's own through). */
export interface Overrides {
  /** A model to run whatever the answers say (an OpenAI request naming a raw provider model). */
  model?: string;
  maxTokens?: number;
  /** nucleus sampling: a conversation's own option */
  topP?: number;
  stop?: string[];
  temperature?: number;
  /** The /v1 gateways: the client's own tools (handed back, never run here) and its rich conversation (client-tools.ts). */
  client?: ClientRequest;
}

export interface RunPlan {
  executionId: number;
  agent: Pick<Agent, 'id' | 'type' | 'instructions' | 'workspace_id'>;
  userId: number;
  model: string | null;
  developer: string | null;
  conversation: Turn[];
  /** retrieval query */
  query: string;
  fileIds: number[];
  /** ext `memory_collections`: null means all of the caller's memories */
  memoryCollections?: number[] | null;
  temperature?: number;
  tool: string | null;
  /** image agents: the `size` answer (e.g. 1024x1024) */
  imageSize?: string;
  /** an injected provider (skips routing) */
  provider?: ModelProvider;
  overrides: Overrides;
  signal: AbortSignal;
  /** the validated answers, as given (a remote agent forwards them) */
  answers?: Record<string, unknown>;
  /** the agent's own tools (MCP servers), offered whatever the web `tools` answer is */
  toolbox?: Toolbox;
}

export interface RunDeps {
  resolve(model: string): ModelProvider;
  defaultModel(): string | null;
  sources: ContextSources;
  search(): SearchBackend;
  saveImage(workspaceId: number, userId: number, filename: string, bytes: Buffer): { id: number; filename: string };
}

export interface RunSink {
  /** the model is about to be called: from here on the execution is charged (credits.ts) */
  running(provider: string): void;
  text(delta: string): void;
  context(used: ExecutionContext): void;
  /** a tool step was added or changed */
  step?(step: ToolStep): void;
}

export interface RunResult {
  inputTokens: number;
  outputTokens: number;
  outputFileId: number | null;
}

const MAX_TOOL_ROUNDS = 5;

function pickModel(plan: RunPlan, deps: RunDeps): string {
  const model = plan.model ?? deps.defaultModel();
  if (!model) {
    throw new ProviderError('This agent has no model answer and no default model is set. Choose a default model in Settings → Providers.', 'model_unavailable');
  }
  return model;
}

/** Runs one execution to its end: text (with tools) or image; throws ProviderError with a stable code. */
export async function runExecution(plan: RunPlan, deps: RunDeps, sink: RunSink): Promise<RunResult> {
  if (plan.agent.type === 'video') {
    throw new ProviderError('Video agents cannot run in Agent Desk yet: no video model provider is available. Use a text or chat agent to write the script.', 'unsupported');
  }
  const model = pickModel(plan, deps);
  const provider = plan.provider ?? deps.resolve(model);
  if (plan.agent.type === 'image') return runImage(plan, deps, sink, provider, model);
  if (plan.agent.type !== 'chat' && plan.agent.type !== 'text') throw new ProviderError(`Agents of type ${String(plan.agent.type)} are not supported.`, 'unsupported');

  const backend = deps.search();
  if (plan.tool && !searchConfigured(backend)) {
    throw new ProviderError(
      'Web search is not set up. Add a SearXNG address or a Brave Search key in Settings → Web search (or set AGENT_DESK_SEARXNG_URL), or answer without web search.',
      'tool_unavailable',
    );
  }

  // Bounded work per request: a message this long fits no model's window anyway.
  const tooLong = plan.conversation.find((t) => t.content.length > MAX_MESSAGE_CHARS);
  if (tooLong) {
    throw new ProviderError(
      `A message is too long (${tooLong.content.length.toLocaleString('en-US')} characters; the limit is ${MAX_MESSAGE_CHARS.toLocaleString('en-US')}). Shorten it or attach the text as a file.`,
      'message_too_long',
    );
  }
  const window = provider.contextWindow?.(model) ?? contextWindowOf(model);
  const reserveOutput = plan.overrides.maxTokens ?? Math.min(4096, Math.floor(window / 4));
  const built = await buildContext(
    {
      userId: plan.userId,
      agentId: plan.agent.id,
      instructions: plan.agent.instructions,
      developer: plan.developer,
      conversation: plan.conversation,
      messages: clientMessages(plan.overrides.client, plan.conversation, provider, model),
      query: plan.query,
      fileIds: plan.fileIds,
      memoryCollections: plan.memoryCollections ?? null,
      contextWindow: window,
      reserveOutput,
      model,
    },
    deps.sources,
  );
  mark('context built');
  sink.context(built.used);
  // Canceled while the context was built: the model is never called (nor charged for).
  plan.signal.throwIfAborted();
  sink.running(provider.id);

  const messages: ChatMessage[] = [...built.messages];
  // The tools this run may use, decided once: the web tools as the `tools` answer says and the
  // agent's own (MCP). The loop runs only these; a call to any other name is refused, as a step.
  const loop = new ToolLoop(plan.toolbox ?? null, { step: (st) => sink.step?.(st) }, plan.signal, plan.tool ? webTools(backend, plan.tool) : null);
  const ownTools = loop.specs();
  const clientTools = clientToolSpecs(plan.overrides.client, ownTools);
  const allTools = [...ownTools, ...clientTools];
  const tools = allTools.length ? allTools : undefined;
  const maxRounds = Math.max(MAX_TOOL_ROUNDS, loop.maxSteps);
  let inputTokens = 0;
  let outputTokens = 0;
  let reported = false;
  let produced = '';
  for (let round = 0; ; round++) {
    let calls = null as null | { id: string; name: string; arguments: string }[];
    let roundText = '';
    // Past the bound, the model is asked once more without tools, so that it answers.
    const pastBound = round >= maxRounds || loop.exhausted;
    const offered = pastBound ? undefined : tools;
    for await (const ev of provider.stream({
      model,
      messages,
      temperature: plan.overrides.temperature ?? plan.temperature,
      maxTokens: plan.overrides.maxTokens,
      topP: plan.overrides.topP,
      stop: plan.overrides.stop,
      tools: offered,
      ...clientChoice(plan.overrides.client, offered),
      signal: plan.signal,
    })) {
      if (ev.type === 'text') {
        // A model that never stops (or one 10 MB token) ends here rather than filling the disk.
        const room = MAX_OUTPUT_CHARS - produced.length - roundText.length;
        if (ev.text.length > room) {
          if (room > 0) sink.text(ev.text.slice(0, room));
          throw new ProviderError(
            `The model's output passed the limit of ${MAX_OUTPUT_CHARS.toLocaleString('en-US')} characters and was stopped; the text up to the limit is kept.`,
            'output_too_long',
          );
        }
        roundText += ev.text;
        sink.text(ev.text);
      } else if (ev.type === 'usage') {
        reported = true;
        inputTokens += ev.inputTokens;
        outputTokens += ev.outputTokens;
      } else calls = ev.calls;
    }
    produced += roundText;
    if (!calls?.length) break;
    // The client's own tools are handed back to it: the run ends with those calls (client-tools.ts).
    if (handBack(clientTools, calls, loop.steps.length + 1, (st) => sink.step?.(st))) break;
    if (pastBound) {
      throw new ProviderError(`The model kept calling tools after ${loop.exhausted ? `${loop.maxSteps} tool calls` : `${round} rounds`} (the limit); Agent Desk stopped the run.`, 'tool_limit');
    }
    messages.push({ role: 'assistant', content: roundText, toolCalls: calls });
    for (const c of calls) messages.push(await loop.run(c));
  }
  if (!reported) {
    inputTokens = built.inputTokens;
    outputTokens = countTokensSync(produced);
  }
  return { inputTokens, outputTokens, outputFileId: null };
}

async function runImage(plan: RunPlan, deps: RunDeps, sink: RunSink, provider: ModelProvider, model: string): Promise<RunResult> {
  if (!provider.generateImage) {
    throw new ProviderError(`The provider "${provider.id}" cannot generate images; route ${model} to an OpenAI-compatible provider with /v1/images/generations.`, 'unsupported');
  }
  const prompt = [plan.agent.instructions.trim(), plan.query.trim()].filter(Boolean).join('\n\n');
  sink.context({ memories: [], passages: [] });
  plan.signal.throwIfAborted();
  sink.running(provider.id);
  const img = await provider.generateImage({ model, prompt, size: plan.imageSize, signal: plan.signal });
  const ext = img.mime === 'image/jpeg' ? 'jpg' : img.mime === 'image/webp' ? 'webp' : img.mime === 'image/gif' ? 'gif' : 'png';
  const file = deps.saveImage(plan.agent.workspace_id, plan.userId, `image-${plan.executionId}.${ext}`, img.bytes);
  sink.text(`![${file.filename}](/api/files/${file.id})\n\nfile_id: ${file.id}`);
  return { inputTokens: countTokensSync(prompt), outputTokens: 0, outputFileId: file.id };
}
