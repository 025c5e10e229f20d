import type { RunDeps, RunPlan, RunResult, RunSink } from '../../engine/runner.js';
import { ProviderError } from '../../engine/providers/types.js';
import { countTokensSync, tokenCounter } from '../../engine/tokens.js';
import type { ExecutionContext } from '../../contract/executions.js';
import { RemoteError } from './client.js';
import type { RemoteService } from './service.js';

/** How many memories and passages go along when the user lets an agent share local context. */
const SHARED_MEMORIES = 5;
const SHARED_PASSAGES = 5;

/**
 * Runs an execution of a remote agent: forwards it to the remote platform's
 * `execute` with `stream: true` and passes its events through, event by event, into the local
 * execution, which is stored, streamed, charged and announced like any other. The remote
 * never sees local memories or files unless the agent's `share_context` allows it.
 */
export function remoteRunner(remote: RemoteService) {
  return async function runRemote(plan: RunPlan, deps: RunDeps, sink: RunSink): Promise<RunResult> {
    const remoteId = remote.remoteIdOf(plan.agent.id);
    if (remoteId === null) throw new ProviderError('This remote agent is no longer in the cached list. Refresh the remote agents in Settings → Remote.', 'remote_error');
    let client;
    try {
      client = remote.client();
    } catch (err) {
      throw new ProviderError((err as Error).message, 'remote_unconfigured');
    }

    const turns = plan.conversation.map((t) => ({ role: t.role, content: t.content }));
    const messages: { role: string; content: string }[] = [];
    if (remote.sharesContext(plan.agent.id)) {
      const memories = await deps.sources.memories(plan.userId, plan.query, SHARED_MEMORIES);
      const fileIds = [...new Set([...deps.sources.linkedFileIds(plan.agent.id), ...plan.fileIds])];
      const passages = fileIds.length ? await deps.sources.passages(fileIds, plan.query, SHARED_PASSAGES) : [];
      const parts = [
        ...(plan.developer ? [plan.developer] : []),
        ...(memories.length ? ['Notes from the user (their memories):', ...memories.map((m) => `- ${m.memory}`)] : []),
        ...(passages.length ? ['Passages from the user\'s files:', ...passages.map((p) => `[${p.filename ?? `file ${p.file_id}`}] ${p.text}`)] : []),
      ];
      if (parts.length) messages.push({ role: 'developer', content: parts.join('\n') });
      const used: ExecutionContext = {
        memories: memories.map((m) => ({ id: m.id, memory: m.memory })),
        passages: passages.map((p) => ({ file_id: p.file_id, filename: p.filename, text: p.text })),
      };
      sink.context(used);
    } else if (plan.developer) {
      messages.push({ role: 'developer', content: plan.developer });
    }
    messages.push(...turns);

    const body: Record<string, unknown> = { answers: { ...(plan.answers ?? {}) }, messages };
    if (plan.agent.type !== 'chat') delete body.messages;
    await tokenCounter();
    const inputTokens = messages.reduce((n, m) => n + countTokensSync(m.content) + 4, 0);
    let output = '';
    sink.running('remote');
    try {
      for await (const ev of client.executeStream(remoteId, body, plan.signal)) {
        const status = ev.status;
        if (status === 'running' && ev.output) {
          output += ev.output;
          sink.text(ev.output);
        } else if (status === 'failed' || status === 'canceled') {
          const reason = typeof ev.error === 'string' ? ev.error : ev.error?.message;
          throw new ProviderError(`The remote platform's execution ${status}: ${reason?.replace(/\.$/, '') || 'no reason given'}.`, 'remote_error');
        }
      }
      remote.noteOutcome(null);
    } catch (err) {
      if (err instanceof RemoteError) {
        remote.noteOutcome(err);
        throw new ProviderError(err.message, err.code);
      }
      throw err;
    }
    return { inputTokens, outputTokens: countTokensSync(output), outputFileId: null };
  };
}
