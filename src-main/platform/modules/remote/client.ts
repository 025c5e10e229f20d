import { createParser } from 'eventsource-parser';

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

export interface RemoteAgent {
  id: number;
  title: string;
  description: string | null;
  long_description: string | null;
  slug: string;
  type: string;
  visibility?: string;
  active?: number;
  questions: unknown[];
  instructions?: string;
}

type Init = Omit<RequestInit, 'signal'> & { signal?: AbortSignal };

interface PageB<T> {
  data: T[];
  current_page: number;
  last_page: number;
  total: number;
}

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
    return `${this.baseUrl.replace(/\/+$/, '')}${path}`;
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
        signal: ctl.signal,
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
    const res = await this.request(path, init);
    try {
      return (await res.json()) as T;
    } catch {
      throw new RemoteError('The remote platform answered with something that is not JSON.', 'remote_error', res.status);
    }
  }

  async agentsPage(page: number, perPage = 100): Promise<PageB<RemoteAgent>> {
    return this.json<PageB<RemoteAgent>>(`/api/agents?page=${page}&per_page=${perPage}`);
  }

  async allAgents(maxPages = 50): Promise<RemoteAgent[]> {
    const first = await this.agentsPage(1);
    const all = [...first.data];
    for (let page = 2; page <= Math.min(first.last_page, maxPages); page++) all.push(...(await this.agentsPage(page)).data);
    return all;
  }

  /**
   * Runs a remote execution with `stream: true` and yields each SSE event's execution object
   * as it arrives. A stream that ends without a terminal event is an error.
   */
  async *executeStream(remoteAgentId: number, body: Record<string, unknown>, signal?: AbortSignal): AsyncGenerator<Record<string, unknown>> {
    const res = await this.request(`/api/agents/${remoteAgentId}/execute`, { method: 'POST', body: JSON.stringify({ ...body, stream: true }), signal, headers: { Accept: 'text/event-stream' } });
    if (!res.body) throw new RemoteError('The remote platform sent no stream.', 'remote_error');
    const queue: Record<string, unknown>[] = [];
    let bad: string | null = null;
    const parser = createParser({
      onEvent: (ev) => {
        if (!ev.data || ev.data === '[DONE]') return;
        try {
          queue.push(JSON.parse(ev.data) as Record<string, unknown>);
        } catch {
          bad = 'The remote platform sent an event that is not JSON.';
        }
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
          if (ev.status === 'completed' || ev.status === 'succeeded' || ev.status === 'failed' || ev.status === 'canceled') terminal = true;
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
