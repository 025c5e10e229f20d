import type { FromPlatform, PortLike, ToPlatform } from './protocol.js';
import { BRIDGE_PRINCIPAL, BridgeInputError, bridgeError, handleBridgeRequest, toPlatformRequest, type FetchesApp } from './requests.js';

/**
 * Serves one renderer's MessagePort: requests answered whole, streams (SSE) chunk by chunk,
 * each by its id. A cancel, or the port closing (the page reloaded or went away), ends the read;
 * the platform keeps the execution going (CONTRACT: a client that disconnects does not stop it).
 * `base` is the origin requests are addressed to (the localhost API's URL when it is on).
 */
export function servePort(platform: FetchesApp, port: PortLike, base: () => string): { close(): void } {
  const streams = new Map<number, AbortController>();
  let open = true;
  const post = (m: FromPlatform) => {
    if (open) port.postMessage(m);
  };
  const closeAll = () => {
    open = false;
    for (const a of streams.values()) a.abort();
    streams.clear();
  };
  port.on('message', (e: { data: unknown }) => {
    const m = e.data as ToPlatform | undefined;
    if (!m || typeof m !== 'object' || typeof m.id !== 'number') return;
    if (m.t === 'request') void answer(m.id, m.req);
    else if (m.t === 'stream') void stream(m.id, m.req);
    else if (m.t === 'cancel') streams.get(m.id)?.abort();
  });
  port.on('close', closeAll);
  port.start();

  async function answer(id: number, raw: unknown): Promise<void> {
    try {
      post({ t: 'response', id, res: await handleBridgeRequest(platform, raw, base()) });
    } catch (err) {
      post({ t: 'response', id, res: bridgeError(500, err instanceof Error ? err.message : String(err)) });
    }
  }

  async function stream(id: number, raw: unknown): Promise<void> {
    const abort = new AbortController();
    streams.set(id, abort);
    const send = (m: FromPlatform) => {
      if (!abort.signal.aborted) post(m);
    };
    let status = 0;
    try {
      let request: Request;
      try {
        request = toPlatformRequest(raw, base(), abort.signal);
      } catch (err) {
        if (!(err instanceof BridgeInputError)) throw err;
        send({ t: 'chunk', id, text: JSON.stringify({ message: err.message }) });
        send({ t: 'end', id, status: 400 });
        return;
      }
      const res = await platform.app.fetch(request, { trustedPrincipal: BRIDGE_PRINCIPAL });
      status = res.status;
      if (res.body) {
        const reader = res.body.getReader();
        abort.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
        const decoder = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read();
          if (done || abort.signal.aborted) break;
          const text = decoder.decode(value, { stream: true });
          if (text) send({ t: 'chunk', id, text });
        }
        const tail = decoder.decode();
        if (tail) send({ t: 'chunk', id, text: tail });
      }
      send({ t: 'end', id, status });
    } catch (err) {
      send({ t: 'end', id, status: status || 500, error: err instanceof Error ? err.message : String(err) });
    } finally {
      streams.delete(id);
    }
  }

  return {
    close() {
      closeAll();
      port.close();
    },
  };
}
