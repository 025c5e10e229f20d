import { createParser } from 'eventsource-parser';
import { RemoteAgentPage, RemoteEvent } from './rows.js';
import { isFinished } from '../../contract/executions.js';
import { noTrailingSlash } from '../../kernel/trim.js';

/** A failure talking to the remote platform, worded for people and never holding the key. */
export class RemoteError extends Error {
  constructor(
    message: string,
    readonly code: 'remote_unauthorized' | 'remote_unreachable' | 'remote_timeout' | 'remote_error',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'RemoteError';
  }
}

type Init = Omit<RequestInit, 'signal'> & { signal?: AbortSignal };

/**
 * The remote platform's HTTP API (the spec's, so the hosted platform or another Agent Desk).
 * Every error is turned into a RemoteError whose text is scrubbed of the key.
 */
export class RemoteClient {
  constructor(
    readonly baseUrl: string,
    private readonly key: string,
    private readonly timeoutMs = 15_000,
  ) {}

  private scrub(text: string): string {
    return this.key ? text.split(this.key).join('[redacted]') : text;
  }

  private url(path: string): string {
    return `${noTrailingSlash(this.baseUrl)}${path}`;
  }

  /** fetch with a timeout on the answer's headers; `signal` also aborts (e.g. a cancel). */
  async request(path: string, init: Init = {}, timeoutMs = this.timeoutMs): Promise<Response> {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(new Error('timeout')), timeoutMs);
    const onAbort = () => ctl.abort(init.signal?.reason);
    init.signal?.addEventListener('abort', onAbort, { once: true });
    let res: Response;
    try {
      res = await fetch(this.url(path), {
        ...init,
        // The caller's signal stays on the answer's body too (its own deadline, a cancel).
        signal: init.signal ? AbortSignal.any([ctl.signal, init.signal]) : ctl.signal,
        redirect: 'error',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...(init.headers as Record<string, string>), Authorization: `Bearer ${this.key}` },
      });
    } catch (err) {
      if (init.signal?.aborted) throw err;
      if (ctl.signal.aborted) throw new RemoteError(`The remote platform did not answer within ${Math.round(timeoutMs / 1000)} s.`, 'remote_timeout');
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new RemoteError(
        this.scrub(`The remote platform at ${this.baseUrl} is unreachable (${cause?.code ?? cause?.message ?? (err as Error).message}).`),
        'remote_unreachable',
      );
    } finally {
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', onAbort);
    }
    if (res.ok) return res;
    const body = await res.text().catch(() => '');
    let message = body.slice(0, 300);
    try {
      message = (JSON.parse(body) as { message?: string }).message ?? message;
    } catch {}
    if (res.status === 401 || res.status === 403) {
      throw new RemoteError(`The remote platform refused the API key (${res.status}). Check the key in Settings → Remote.`, 'remote_unauthorized', res.status);
    }
    throw new RemoteError(this.scrub(`The remote platform answered ${res.status}${message ? `: ${message}` : ''}.`), 'remote_error', res.status);
  }

  async json<T>(path: string, init: Init = {}): Promise<T> {
    // A deadline for the whole answer: a remote that sends its headers and then stalls is cut off too.
    const deadline = AbortSignal.timeout(2 * this.timeoutMs);
    const res = await this.request(path, { ...init, signal: init.signal ? AbortSignal.any([init.signal, deadline]) : deadline });
    try {
      return (await res.json()) as T;
    } catch (err) {
      if (init.signal?.aborted) throw err;
      if (deadline.aborted) throw new RemoteError(`The remote platform did not finish its answer within ${Math.round((2 * this.timeoutMs) / 1000)} s.`, 'remote_timeout', res.status);
      throw new RemoteError('The remote platform answered with something that is not JSON.', 'remote_error', res.status);
    }
  }

  /** A page of the remote's agents, its shape checked (the items are parsed one by one by the caller). */
  async agentsPage(page: number, perPage = 100): Promise<RemoteAgentPage> {
    const r = RemoteAgentPage.safeParse(await this.json<unknown>(`/api/agents?page=${page}&per_page=${perPage}`));
    if (!r.success) {
      const i = r.error.issues[0];
      throw new RemoteError(`The remote platform answered with a list of agents this Agent Desk cannot read (${i.path.join('.') || 'the answer'}: ${i.message}).`, 'remote_error');
    }
    return r.data;
  }

  async allAgents(maxPages = 50): Promise<unknown[]> {
    const first = await this.agentsPage(1);
    const all = [...first.data];
    for (let page = 2; page <= Math.min(first.last_page, maxPages); page++) all.push(...(await this.agentsPage(page)).data);
    return all;
  }

  /**
   * Runs a remote execution with `stream: true` and yields each SSE event's execution object
   * as it arrives. A stream that ends without a terminal event is an error.
   */
  async *executeStream(remoteAgentId: number, body: Record<string, unknown>, signal?: AbortSignal): AsyncGenerator<RemoteEvent> {
    const res = await this.request(`/api/agents/${remoteAgentId}/execute`, { method: 'POST', body: JSON.stringify({ ...body, stream: true }), signal, headers: { Accept: 'text/event-stream' } });
    if (!res.body) throw new RemoteError('The remote platform sent no stream.', 'remote_error');
    const queue: RemoteEvent[] = [];
    let bad: string | null = null;
    const parser = createParser({
      onEvent: (ev) => {
        if (!ev.data || ev.data === '[DONE]' || bad) return;
        let data: unknown;
        try {
          data = JSON.parse(ev.data);
        } catch {
          bad = 'The remote platform sent an event that is not JSON.';
          return;
        }
        const r = RemoteEvent.safeParse(data);
        if (r.success) queue.push(r.data);
        else bad = 'The remote platform sent an event that is not an execution this Agent Desk can read.';
      },
    });
    const decoder = new TextDecoder();
    let terminal = false;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        if (bad) throw new RemoteError(bad, 'remote_error');
        while (queue.length) {
          const ev = queue.shift()!;
          if (isFinished(ev.status)) terminal = true;
          yield ev;
        }
      }
    } catch (err) {
      if (err instanceof RemoteError || signal?.aborted) throw err;
      throw new RemoteError(this.scrub(`The connection to the remote platform broke mid-stream (${(err as Error).message}).`), 'remote_unreachable');
    }
    if (!terminal) throw new RemoteError('The remote platform closed the stream before the execution ended.', 'remote_unreachable');
  }
}
