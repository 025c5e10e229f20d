import type { Transport } from './transport';

/**
 * The one place that notices a 401: every answer of the platform (a request, a stream, an upload)
 * passes through here, so no caller has to remember to look. A 401 means the session is gone.
 */
export function watchingAuth(t: Transport, onUnauthenticated: () => void): Transport {
  const seen = <R extends { status: number }>(res: R): R => {
    if (res.status === 401) onUnauthenticated();
    return res;
  };
  return {
    kind: t.kind,
    request: async (req) => seen(await t.request(req)),
    stream: async (req, h) => seen(await t.stream(req, h)),
    upload: async (path, form, h) => seen(await t.upload(path, form, h)),
  };
}
