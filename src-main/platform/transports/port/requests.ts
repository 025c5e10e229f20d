import type { App } from '../http/app.js';
import type { Principal } from '../../kernel/context.js';
import { DEFAULT_USER_ID } from '../../kernel/context.js';
import type { BridgeRequest, BridgeResponse } from '../../contract/bridge.js';

/**
 * A renderer call becomes a `Request` for the platform's own `app.fetch`, with a trusted
 * principal passed in env, which HTTP cannot forge. Only the app's own window gets a port
 * (the main process checks that before handing one over).
 */
export const BRIDGE_PRINCIPAL: Principal = { userId: DEFAULT_USER_ID, via: 'bridge' };

export interface FetchesApp {
  app: Pick<App, 'fetch'>;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Headers the renderer may not set: they would misdescribe the in-process call. */
const DROPPED_HEADERS = new Set(['host', 'cookie', 'content-length', 'connection', 'transfer-encoding']);

export class BridgeInputError extends Error {}

/** Builds the platform Request, refusing anything that is not a plain same-app call. */
export function toPlatformRequest(raw: unknown, base: string, signal?: AbortSignal): Request {
  if (!raw || typeof raw !== 'object') throw new BridgeInputError('A bridge request must be an object.');
  const req = raw as Partial<BridgeRequest>;
  const method = typeof req.method === 'string' ? req.method.toUpperCase() : '';
  if (!METHODS.has(method)) throw new BridgeInputError(`Unsupported method: ${String(req.method)}`);
  if (typeof req.path !== 'string' || !req.path.startsWith('/') || req.path.startsWith('//')) throw new BridgeInputError('The path must start with a single "/".');
  const url = new URL(req.path, base);
  if (url.origin !== new URL(base).origin) throw new BridgeInputError('The path must stay on the platform.');
  const headers = new Headers();
  if (req.headers !== undefined) {
    if (!req.headers || typeof req.headers !== 'object') throw new BridgeInputError('Headers must be an object of strings.');
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v !== 'string') throw new BridgeInputError(`Header ${k} must be a string.`);
      if (!DROPPED_HEADERS.has(k.toLowerCase())) headers.set(k, v);
    }
  }
  headers.set('host', url.host);
  let body: BodyInit | undefined;
  if (req.body !== undefined && req.body !== null) {
    if (method === 'GET' || method === 'HEAD') throw new BridgeInputError(`A ${method} request has no body.`);
    if (typeof req.body === 'string') body = req.body;
    else if (req.body instanceof ArrayBuffer) body = new Uint8Array(req.body);
    else if (ArrayBuffer.isView(req.body)) {
      // A port may hand bytes over as a Buffer/Uint8Array view: copy exactly the viewed bytes.
      const v = req.body as ArrayBufferView;
      body = new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) as ArrayBuffer);
    } else throw new BridgeInputError('The body must be text or bytes.');
  }
  return new Request(url, { method, headers, body, signal });
}

export const bridgeError = (status: number, message: string): BridgeResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message }),
});

/** One request through the platform, whole response back. Bad input is a 400, never a throw. */
export async function handleBridgeRequest(platform: FetchesApp, raw: unknown, base: string): Promise<BridgeResponse> {
  let request: Request;
  try {
    request = toPlatformRequest(raw, base);
  } catch (err) {
    if (err instanceof BridgeInputError) return bridgeError(400, err.message);
    throw err;
  }
  const res = await platform.app.fetch(request, { trustedPrincipal: BRIDGE_PRINCIPAL });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}
