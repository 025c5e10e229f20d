import { t } from '../i18n';
import type { RawResponse, RequestInit, StreamHandlers, Transport, UploadHandlers } from './transport';

function headersOf(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => (out[k.toLowerCase()] = v));
  return out;
}

/**
 * The app's own request header: the platform refuses a session cookie without it, so that a page
 * on another local port (or an image in a model's answer) cannot ride the cookie.
 */
const APP_HEADER = { 'X-Agent-Desk': '1' };

/** Browser mode: same-origin fetch with the HttpOnly session cookie; no key ever lives in page script. */
export function httpTransport(base = ''): Transport {
  return {
    kind: 'http',
    async request(req: RequestInit): Promise<RawResponse> {
      const res = await fetch(base + req.path, { method: req.method, headers: { ...req.headers, ...APP_HEADER }, body: req.body, credentials: 'same-origin' });
      return { status: res.status, headers: headersOf(res.headers), text: await res.text() };
    },

    async stream(req: RequestInit, h: StreamHandlers) {
      const res = await fetch(base + req.path, { method: req.method, headers: { ...req.headers, ...APP_HEADER }, body: req.body, credentials: 'same-origin', signal: h.signal });
      const type = res.headers.get('content-type') ?? '';
      // An error answer is JSON, not a stream: hand it back whole for the client to read.
      if (!res.ok || !type.includes('text/event-stream') || !res.body) return { status: res.status, text: await res.text() };
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (value) h.onChunk(value);
        }
      } finally {
        reader.releaseLock();
      }
      return { status: res.status };
    },

    // XHR rather than fetch: fetch has no upload progress events.
    upload(path: string, form: FormData, h: UploadHandlers): Promise<RawResponse> {
      return new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', base + path);
        for (const [k, v] of Object.entries(APP_HEADER)) xhr.setRequestHeader(k, v);
        xhr.upload.onprogress = (e) => h.onProgress?.(e.loaded, e.lengthComputable ? e.total : 0);
        xhr.onload = () => {
          const headers: Record<string, string> = {};
          for (const line of xhr.getAllResponseHeaders().trim().split(/[\r\n]+/)) {
            const i = line.indexOf(':');
            if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
          }
          resolve({ status: xhr.status, headers, text: xhr.responseText });
        };
        xhr.onerror = () => reject(new Error(t('errors.uploadNetwork')));
        xhr.onabort = () => reject(new DOMException('Upload canceled.', 'AbortError'));
        h.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
        xhr.send(form);
      });
    },
  };
}
