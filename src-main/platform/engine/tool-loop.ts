/**
 * The tools of one run: the agent's own (from MCP servers) and the web tools its `tools` answer
 * turns on, decided once when the run starts. They are offered to the model as functions; each
 * call is approved, bounded in time and size, and recorded as a step. A call to any other name
 * is refused (a step too), never run. The engine imports no module: the MCP tools, their approval
 * and the call itself come in through `Toolbox`, the web tools through `WebTools`.
 */
import type { ToolStep } from '../contract/tools.js';
import type { ChatMessage, ToolCall, ToolSpec } from './providers/types.js';
import { isAbort } from './providers/types.js';
import { isoMicros, nowMicros } from '../kernel/time.js';
import { WEB_TOOL_NAMES } from './tools/web.js';

export interface AgentTool {
  /** the function name the model sees (unique within the run) */
  name: string;
  serverId: number;
  server: string;
  /** the tool's name on its server */
  tool: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ToolCallResult {
  text: string;
  isError: boolean;
}

export type Approval = 'auto' | 'user' | 'denied';

export interface Toolbox {
  tools: AgentTool[];
  /** the agent's servers that could not give their tools: shown as failed steps, not silently left out */
  unavailable?: { serverId: number; server: string; error: string }[];
  /** tool calls per run (default 8) */
  maxSteps?: number;
  /** per call (default 60 s) */
  callTimeoutMs?: number;
  /** characters of one result given to the model (default 32,000) */
  maxResultChars?: number;
  /** Resolves once the call may run (or is denied); `onWait` is called first when a person must answer. */
  approve(tool: AgentTool, args: Record<string, unknown>, stepId: number, signal: AbortSignal, onWait: () => void): Promise<Approval>;
  call(tool: AgentTool, args: Record<string, unknown>, opts: { signal: AbortSignal; timeoutMs: number }): Promise<ToolCallResult>;
}

/** The web tools a run may use (the `tools` answer is `internet` or a website source). */
export interface WebTools {
  specs: ToolSpec[];
  call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolCallResult>;
}

/** What the web tools' steps show as their server. */
export const WEB_SERVER = 'the web';

type Entry = { kind: 'mcp'; tool: AgentTool } | { kind: 'web'; name: string };

export interface StepSink {
  /** a step was added or changed (the step object is the live one) */
  step(step: ToolStep): void;
}

export const DEFAULT_MAX_STEPS = 8;
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RESULT_CHARS = 32_000;
/** No setting gives the model more of one result than this. */
const MAX_RESULT_CHARS = 1_000_000;
/** What a step keeps of a result (the model gets up to maxResultChars). */
const EXCERPT_CHARS = 4_000;
/** Arguments longer than this (as JSON) are kept in a step as an excerpt. */
const MAX_STEP_ARGS_CHARS = 16_000;

/** OpenAI and Anthropic accept function names of this shape only. */
const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Names of the engine's own web tools: an MCP tool never takes one (the model would see two). */
const RESERVED = new Set<string>(WEB_TOOL_NAMES);

/** Model-facing names: the tool's own name when valid and unique, else `server__tool`, made valid. */
export function functionNames(list: { server: string; tool: string }[]): string[] {
  const counts = new Map<string, number>(RESERVED.size ? [...RESERVED].map((n) => [n, 1] as [string, number]) : []);
  for (const t of list) counts.set(t.tool, (counts.get(t.tool) ?? 0) + 1);
  const used = new Set<string>();
  return list.map((t) => {
    let n = FUNCTION_NAME.test(t.tool) && counts.get(t.tool) === 1 ? t.tool : `${t.server}__${t.tool}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
    for (let i = 2; used.has(n); i++) n = `${n.slice(0, 60)}_${i}`;
    used.add(n);
    return n;
  });
}

export function capResult(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n\n[Agent Desk truncated this tool result: ${text.length} characters, the first ${max} shown.]`;
}

class CallTimeout extends Error {}

function parseArgs(raw: string): { args: Record<string, unknown>; bad: string | null } {
  try {
    const parsed: unknown = JSON.parse(raw || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return { args: parsed as Record<string, unknown>, bad: null };
    return { args: {}, bad: 'the arguments must be a JSON object' };
  } catch {
    return { args: {}, bad: 'the arguments are not valid JSON' };
  }
}

/** What a step shows of the arguments: the object, or an excerpt of the text when it is not JSON or very long. */
function stepArguments(raw: string, args: Record<string, unknown>, bad: string | null): unknown {
  const text = bad ? raw : JSON.stringify(args);
  if (text.length <= MAX_STEP_ARGS_CHARS) return bad ? raw : args;
  return `${text.slice(0, EXCERPT_CHARS)}… (${text.length} characters)`;
}

export class ToolLoop {
  readonly steps: ToolStep[] = [];
  private readonly byName = new Map<string, Entry>();
  readonly maxSteps: number;

  constructor(
    private readonly box: Toolbox | null,
    private readonly sink: StepSink,
    private readonly signal: AbortSignal,
    private readonly web: WebTools | null = null,
  ) {
    for (const spec of web?.specs ?? []) this.byName.set(spec.name, { kind: 'web', name: spec.name });
    for (const t of box?.tools ?? []) if (!this.byName.has(t.name)) this.byName.set(t.name, { kind: 'mcp', tool: t });
    this.maxSteps = box?.maxSteps ?? DEFAULT_MAX_STEPS;
    for (const u of box?.unavailable ?? []) {
      const step: ToolStep = {
        id: this.steps.length + 1, type: 'tool_call', server_id: u.serverId, server: u.server, tool: '(start)', arguments: {}, result: null,
        error: `Its tools were not offered to the model: ${u.error}`, status: 'failed', approved: null, started_at: isoMicros(nowMicros()), duration_ms: 0,
      };
      this.steps.push(step);
      sink.step(step);
    }
  }

  /** tool calls the model made (start failures are steps too, but cost no call) */
  private calls = 0;

  /** The functions offered to the model: the web tools, then the agent's own. */
  specs(): ToolSpec[] {
    const mcp = (this.box?.tools ?? []).filter((t) => this.byName.get(t.name)?.kind === 'mcp');
    return [...(this.web?.specs ?? []), ...mcp.map((t) => ({ name: t.name, description: t.description || `${t.tool} (${t.server})`, parameters: t.parameters }))];
  }

  /** Whether `name` is one of this run's tools. */
  owns(name: string): boolean {
    return this.byName.has(name);
  }

  get exhausted(): boolean {
    return this.calls >= this.maxSteps;
  }

  private update(step: ToolStep, patch: Partial<ToolStep>): void {
    Object.assign(step, patch);
    this.sink.step(step);
  }

  /**
   * Runs one call the model asked for and returns the tool message that answers it. Every call
   * becomes a step, the refused and the not-run ones too. Cancel rethrows at once.
   */
  async run(call: ToolCall): Promise<ChatMessage> {
    const answer = (content: string): ChatMessage => ({ role: 'tool', toolCallId: call.id, content });
    const entry = this.byName.get(call.name);
    const { args, bad } = parseArgs(call.arguments);
    let started = performance.now();
    const step: ToolStep = {
      id: this.steps.length + 1,
      type: 'tool_call',
      server_id: entry?.kind === 'mcp' ? entry.tool.serverId : null,
      server: entry?.kind === 'mcp' ? entry.tool.server : entry?.kind === 'web' || RESERVED.has(call.name) ? WEB_SERVER : null,
      tool: entry?.kind === 'mcp' ? entry.tool.tool : call.name.slice(0, 200),
      arguments: stepArguments(call.arguments, args, bad),
      result: null,
      error: null,
      status: 'running',
      approved: null,
      started_at: isoMicros(nowMicros()),
      duration_ms: null,
    };
    this.steps.push(step);
    const done = (patch: Partial<ToolStep>) => this.update(step, { ...patch, duration_ms: Math.round(performance.now() - started) });
    if (this.exhausted) {
      done({ status: 'failed', error: `Not run: this answer reached its limit of ${this.maxSteps} tool calls.` });
      return answer(`Error: not run. This run has reached its limit of ${this.maxSteps} tool calls; answer with what you have.`);
    }
    this.calls++;
    if (!entry) {
      done({ status: 'denied', error: `Refused: ${step.tool} is not one of the tools this answer may use, so it was not run.` });
      return answer(`Error: ${call.name} is not available here and was not run. Use only the tools you were given, or answer without tools.`);
    }
    if (bad) {
      done({ status: 'failed', error: `Not run: ${bad}.` });
      return answer(`Error: ${bad}. Call ${call.name} again with a JSON object that matches its input schema.`);
    }
    this.sink.step(step);

    let approval: Approval = 'auto';
    if (entry.kind === 'mcp') {
      try {
        approval = await this.box!.approve(entry.tool, args, step.id, this.signal, () => this.update(step, { status: 'awaiting_approval' }));
      } catch (err) {
        done({ status: 'failed', error: this.signal.aborted ? 'Canceled.' : `Approval failed: ${(err as Error).message}` });
        throw err;
      }
      if (approval === 'denied') {
        done({ status: 'denied', approved: null, error: 'The user denied this call.' });
        return answer('Error: the user denied this tool call. Do not call it again; answer without it or say what you would need.');
      }
    }
    // duration_ms is the call's own time, not the time a person took to answer
    started = performance.now();
    this.update(step, { status: 'running', approved: approval });

    const timeoutMs = this.box?.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const ctl = new AbortController();
    const onAbort = () => ctl.abort(this.signal.reason);
    this.signal.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        ctl.abort(new CallTimeout());
        reject(new CallTimeout());
      }, timeoutMs);
    });
    const toolName = entry.kind === 'mcp' ? entry.tool.tool : entry.name;
    try {
      const running = entry.kind === 'mcp' ? this.box!.call(entry.tool, args, { signal: ctl.signal, timeoutMs }) : this.web!.call(entry.name, args, ctl.signal);
      const result = await Promise.race([running, timeout]);
      const text = capResult(result.text, Math.min(this.box?.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS, MAX_RESULT_CHARS));
      const excerpt = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
      if (result.isError) {
        done({ status: 'failed', error: excerpt || 'The tool reported an error.', result: null });
        return answer(`Error from ${toolName}: ${text || 'the tool reported an error without text.'}`);
      }
      done({ status: 'succeeded', result: excerpt });
      return answer(text);
    } catch (err) {
      if (this.signal.aborted) {
        done({ status: 'failed', error: 'Canceled.' });
        throw isAbort(err) ? err : Object.assign(new Error('The execution was canceled.'), { name: 'AbortError' });
      }
      const message = err instanceof CallTimeout ? `The tool did not answer within ${Math.round(timeoutMs / 100) / 10} s and was stopped.` : (err as Error)?.message || String(err);
      done({ status: 'failed', error: message });
      return answer(`Error: ${message}`);
    } finally {
      clearTimeout(timer);
      this.signal.removeEventListener('abort', onAbort);
    }
  }
}

/** Where an execution gets its agent's tools (the tools module implements it). */
export interface ToolboxSource {
  toolboxFor(userId: number, agentId: number, executionId: number, signal: AbortSignal): Promise<Toolbox | null>;
}
