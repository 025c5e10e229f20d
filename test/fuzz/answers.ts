/**
 * What every answer must look like (CONTRACT.md "Errors"): never a 500 for client input; an
 * error is JSON `{message}`, or `{message, errors}` for 422, with the headers its status needs.
 */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** OpenAI-compatible routes answer errors the way the `openai` SDK reads them: `{"error": {message, type, param, code}}`. */
export const isOpenAIPath = (path: string) => /^\/v1\//.test(path) || /^\/api\/agents\/[^/]+\/openai\//.test(path);
/** The Anthropic Messages routes answer errors as `{"type": "error", "error": {type, message}}`. */
export const isAnthropicPath = (path: string) => path === '/v1/messages' || path.startsWith('/v1/messages/');

export function problemsWith(a: Answer, req: { method: string; url: string } = { method: 'GET', url: '/api' }): string[] {
  const problems: string[] = [];
  if (a.status >= 500) problems.push(`status ${a.status}: ${a.text.slice(0, 300)}`);
  if (a.status < 100 || a.status > 599) problems.push(`impossible status ${a.status}`);
  if (a.status < 400) return problems;
  if (a.status === 401 && a.headers.get('www-authenticate') !== 'Bearer') problems.push('401 without WWW-Authenticate: Bearer');
  if (req.method === 'HEAD') return problems; // a HEAD answer has no body by definition
  const type = a.headers.get('content-type') ?? '';
  if (!/^application\/json\b/.test(type)) problems.push(`error answer with content-type "${type}"`);
  let body: unknown;
  try {
    body = JSON.parse(a.text);
  } catch {
    problems.push(`error body is not JSON: ${a.text.slice(0, 200)}`);
    return problems;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    problems.push(`error body is not an object: ${a.text.slice(0, 200)}`);
    return problems;
  }
  const b = body as Record<string, unknown>;
  // The path as the server saw it (`/api/agents/../openai/x` is `/api/openai/x`, not an OpenAI route).
  let path = req.url.split('?')[0];
  try {
    path = new URL(req.url, 'http://127.0.0.1').pathname;
  } catch {}
  if (isAnthropicPath(path)) {
    const e = b.error as Record<string, unknown> | undefined;
    if (Object.keys(b).sort().join() !== 'error,type' || b.type !== 'error' || typeof e !== 'object' || e === null || typeof e.message !== 'string' || typeof e.type !== 'string') {
      problems.push(`Anthropic route error not in Anthropic's shape: ${a.text.slice(0, 200)}`);
    }
    return problems;
  }
  if (isOpenAIPath(path)) {
    const e = b.error as Record<string, unknown> | undefined;
    if (Object.keys(b).join() !== 'error' || typeof e !== 'object' || e === null || typeof e.message !== 'string' || typeof e.type !== 'string') {
      problems.push(`OpenAI route error not in OpenAI's shape: ${a.text.slice(0, 200)}`);
    }
    return problems;
  }
  if (typeof b.message !== 'string' || !b.message.trim()) problems.push(`error without a message: ${a.text.slice(0, 200)}`);
  const allowed = a.status === 422 ? ['message', 'errors'] : a.status >= 500 ? ['message', 'error'] : ['message'];
  const extra = Object.keys(b).filter((k) => !allowed.includes(k));
  if (extra.length) problems.push(`error body has keys outside the contract: ${extra.join(', ')}`);
  if (a.status === 422) {
    const errs = b.errors;
    const ok =
      typeof errs === 'object' && errs !== null && !Array.isArray(errs) && Object.values(errs).every((l) => Array.isArray(l) && l.length > 0 && l.every((m) => typeof m === 'string'));
    if (!ok) problems.push(`422 without an errors object of string lists: ${a.text.slice(0, 200)}`);
  }
  if (a.status === 429 && !/^\d+$/.test(a.headers.get('retry-after') ?? '')) problems.push('429 without a Retry-After in seconds');
  if (a.status === 405 && !a.headers.get('allow')) problems.push('405 without Allow');
  if (/\bat .+\.(ts|js):\d+/.test(a.text)) problems.push('stack trace in an answer');
  return problems;
}
