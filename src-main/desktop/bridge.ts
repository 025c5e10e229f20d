import fs from 'node:fs';
import path from 'node:path';
import type { BrowserWindow, Dialog, IpcMain, IpcMainEvent, IpcMainInvokeEvent, WebFrameMain } from 'electron';
import type { Platform } from '../platform/platform.js';
import type { Principal } from '../platform/kernel/context.js';
import { DEFAULT_USER_ID } from '../platform/kernel/context.js';
import { contentTypeOf } from '../platform/kernel/static-files.js';
import type { AppInfo, BridgeRequest, BridgeResponse, PickedFile } from '../../src-preload/api.js';
import { CHANNELS, type StreamControl, type StreamMessage } from './channels.js';

/**
 * The main-process side of `window.agentDesk` (ARCHITECTURE Principle 3): a renderer request
 * becomes a `Request` for the platform's own `app.fetch`, with a trusted principal passed in
 * env, which HTTP cannot forge. Streams come back over a MessagePort, chunk by chunk.
 */
export const BRIDGE_PRINCIPAL: Principal = { userId: DEFAULT_USER_ID, via: 'bridge' };

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Headers the renderer may not set: they would misdescribe the in-process call. */
const DROPPED_HEADERS = new Set(['host', 'cookie', 'content-length', 'connection', 'transfer-encoding']);

type FrameLike = Pick<WebFrameMain, 'url'> & { parent: unknown };

/** Only the app's own top-level page may use the bridge (not an iframe, not a page it was tricked into). */
export function isTrustedSender(frame: FrameLike | null | undefined, isAppUrl: (url: string) => boolean): boolean {
  return !!frame && frame.parent === null && isAppUrl(frame.url);
}

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
      // IPC may hand bytes over as a Buffer/Uint8Array view: copy exactly the viewed bytes.
      const v = req.body as ArrayBufferView;
      body = new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) as ArrayBuffer);
    }
    else throw new BridgeInputError('The body must be text or bytes.');
  }
  return new Request(url, { method, headers, body, signal });
}

const errorResponse = (status: number, message: string): BridgeResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message }),
});

/** One request through the platform, whole response back. Bad input is a 400, never a throw. */
export async function handleBridgeRequest(platform: Pick<Platform, 'app'>, raw: unknown, base: string): Promise<BridgeResponse> {
  let request: Request;
  try {
    request = toPlatformRequest(raw, base);
  } catch (err) {
    if (err instanceof BridgeInputError) return errorResponse(400, err.message);
    throw err;
  }
  const res = await platform.app.fetch(request, { trustedPrincipal: BRIDGE_PRINCIPAL });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}

/** What the bridge needs of Electron's MessagePortMain (tests pass a Node port wrapper). */
export interface PortLike {
  postMessage(message: unknown): void;
  start(): void;
  close(): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

/**
 * Streams a response (SSE) over the port: `chunk` messages in order, then one `end`.
 * The renderer cancelling or closing its port aborts the read; the platform keeps the
 * execution going (CONTRACT: a client that disconnects does not stop it).
 */
export async function streamOverPort(platform: Pick<Platform, 'app'>, raw: unknown, base: string, port: PortLike): Promise<void> {
  const abort = new AbortController();
  const post = (m: StreamMessage) => {
    if (!abort.signal.aborted) port.postMessage(m);
  };
  port.on('message', (e: { data: unknown }) => {
    if ((e.data as StreamControl | undefined)?.type === 'cancel') abort.abort();
  });
  port.on('close', () => abort.abort());
  port.start();
  let status = 0;
  try {
    let request: Request;
    try {
      request = toPlatformRequest(raw, base, abort.signal);
    } catch (err) {
      if (!(err instanceof BridgeInputError)) throw err;
      post({ type: 'chunk', text: JSON.stringify({ message: err.message }) });
      post({ type: 'end', status: 400 });
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
        if (text) post({ type: 'chunk', text });
      }
      const tail = decoder.decode();
      if (tail) post({ type: 'chunk', text: tail });
    }
    post({ type: 'end', status });
  } catch (err) {
    post({ type: 'end', status: status || 500, error: err instanceof Error ? err.message : String(err) });
  } finally {
    port.close();
  }
}

/** Reads the files the user picked; each must fit the upload limit (bytes cross IPC in memory). */
export async function readPickedFiles(paths: string[], maxBytes: number): Promise<PickedFile[]> {
  const out: PickedFile[] = [];
  for (const p of paths) {
    const st = await fs.promises.stat(p);
    const name = path.basename(p);
    if (st.size > maxBytes) throw new Error(`${name} is larger than the upload limit (${Math.round(maxBytes / 1024 / 1024)} MB).`);
    const buf = await fs.promises.readFile(p);
    const type = contentTypeOf(p);
    out.push({ name, type: type === 'application/octet-stream' ? '' : type.split(';')[0], data: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer });
  }
  return out;
}

export interface BridgeDeps {
  ipcMain: Pick<IpcMain, 'handle' | 'on' | 'removeHandler' | 'removeAllListeners'>;
  dialog: Pick<Dialog, 'showOpenDialog'>;
  platform: Pick<Platform, 'app' | 'config'>;
  isAppUrl: (url: string) => boolean;
  /** The base the in-process requests are addressed to (the localhost API's URL when on). */
  baseUrl: () => string;
  appInfo: () => AppInfo;
  windowOf: (event: IpcMainInvokeEvent) => BrowserWindow | null;
}

const REFUSED = 'Refused: only the Agent Desk window may use this bridge.';

/** Registers the IPC handlers; returns a function that removes them. */
export function registerBridge(d: BridgeDeps): () => void {
  const guard = (event: IpcMainInvokeEvent | IpcMainEvent) => {
    if (!isTrustedSender(event.senderFrame, d.isAppUrl)) throw new Error(REFUSED);
  };
  d.ipcMain.handle(CHANNELS.request, (event, raw: unknown) => {
    guard(event);
    return handleBridgeRequest(d.platform, raw, d.baseUrl());
  });
  d.ipcMain.on(CHANNELS.stream, (event, raw: unknown) => {
    const [port] = event.ports ?? [];
    if (!port) return;
    if (!isTrustedSender(event.senderFrame, d.isAppUrl)) {
      port.postMessage({ type: 'end', status: 403, error: REFUSED } satisfies StreamMessage);
      port.close();
      return;
    }
    void streamOverPort(d.platform, raw, d.baseUrl(), port);
  });
  d.ipcMain.handle(CHANNELS.openFiles, async (event) => {
    guard(event);
    const win = d.windowOf(event);
    const opts = { title: 'Add files', properties: ['openFile', 'multiSelections'] as ('openFile' | 'multiSelections')[] };
    const picked = win ? await d.dialog.showOpenDialog(win, opts) : await d.dialog.showOpenDialog(opts);
    return picked.canceled ? [] : readPickedFiles(picked.filePaths, d.platform.config.maxUploadBytes);
  });
  d.ipcMain.handle(CHANNELS.appInfo, (event) => {
    guard(event);
    return d.appInfo();
  });
  return () => {
    d.ipcMain.removeHandler(CHANNELS.request);
    d.ipcMain.removeAllListeners(CHANNELS.stream);
    d.ipcMain.removeHandler(CHANNELS.openFiles);
    d.ipcMain.removeHandler(CHANNELS.appInfo);
  };
}
