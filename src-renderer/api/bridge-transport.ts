import type { AgentDeskBridge, EngineState } from '../../src-preload/api';
import type { RawResponse, RequestInit, StreamHandlers, Transport, UploadHandlers } from './transport';

/**
 * Electron: requests go through the preload bridge, over its MessagePort, to the platform
 * process. That process may stop (and is restarted): `watchEngine` tells the page.
 */
export function bridgeTransport(bridge: AgentDeskBridge): Transport {
  return {
    kind: 'bridge',
    async request(req: RequestInit): Promise<RawResponse> {
      const res = await bridge.request(req);
      return { status: res.status, headers: lower(res.headers), text: res.body };
    },

    stream(req: RequestInit, h: StreamHandlers) {
      return new Promise((resolve, reject) => {
        let body = '';
        let streamed = false;
        const cancel = bridge.stream(
          req,
          (text) => {
            streamed = true;
            body += text;
            h.onChunk(text);
          },
          (status, error) => {
            if (error && !streamed) reject(new Error(error));
            // A non-2xx answer arrives as one chunk of JSON: return it for the client to read.
            else resolve(status >= 400 ? { status, text: body } : { status });
          },
        );
        h.signal?.addEventListener(
          'abort',
          () => {
            cancel();
            reject(new DOMException('Stopped.', 'AbortError'));
          },
          { once: true },
        );
      });
    },

    // The bridge takes raw bytes: let the browser encode the multipart body, then send it whole.
    async upload(path: string, form: FormData, h: UploadHandlers): Promise<RawResponse> {
      const encoded = new Response(form);
      const type = encoded.headers.get('content-type') ?? 'multipart/form-data';
      const bytes = await encoded.arrayBuffer();
      h.onProgress?.(0, bytes.byteLength);
      const res = await bridge.request({ method: 'POST', path, headers: { 'content-type': type }, body: bytes });
      h.onProgress?.(bytes.byteLength, bytes.byteLength);
      return { status: res.status, headers: lower(res.headers), text: res.body };
    },
  };
}

function lower(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}

/**
 * Hears when the app's engine (the platform process) stops and runs again, to say so on screen;
 * told at once while it is down. Outside Electron (the browser, a bridge without it) it never stops.
 */
export function watchEngine(listener: (state: EngineState) => void, bridge: AgentDeskBridge | undefined = typeof window !== 'undefined' ? window.agentDesk : undefined): () => void {
  return bridge?.onEngine?.(listener) ?? (() => {});
}
