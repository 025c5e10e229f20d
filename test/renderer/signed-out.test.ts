// @vitest-environment jsdom
/**
 * The one place that notices a 401: any call of the app's client answered 401 (a request, a
 * stream, an upload) flips the app to its signed-out notice, with no code at the caller; other
 * refusals do not.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ops } from '../../src-renderer/api';
import { useAuth } from '../../src-renderer/stores/auth';
import { useAgents } from '../../src-renderer/stores/agents';

let status = 401;
const body = () => JSON.stringify(status === 401 ? { message: 'Unauthenticated.' } : { message: 'Not found.' });

/** XHR (uploads) answered from `status`, as the browser would. */
class FakeXhr {
  status = 0;
  responseText = '';
  upload = { onprogress: null as unknown };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open() {}
  setRequestHeader() {}
  getAllResponseHeaders() {
    return 'content-type: application/json';
  }
  send() {
    this.status = status;
    this.responseText = body();
    queueMicrotask(() => this.onload?.());
  }
}

beforeEach(() => {
  useAuth.setState({ signedOut: false });
  vi.stubGlobal('fetch', async () => new Response(body(), { status, headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => vi.unstubAllGlobals());

describe('a 401 anywhere', () => {
  it('a request answered 401 signs the app out, whoever made the call', async () => {
    status = 401;
    await expect(api.call(ops.listSessions, {})).rejects.toThrow('Unauthenticated.');
    expect(useAuth.getState().signedOut).toBe(true);
  });

  it('a store that only shows its error still signs the app out (no caller code)', async () => {
    status = 401;
    await useAgents.getState().load();
    expect(useAgents.getState().error).toBeTruthy();
    expect(useAuth.getState().signedOut).toBe(true);
  });

  it('a stream and an upload answered 401 sign it out too', async () => {
    status = 401;
    await expect(api.stream(ops.streamAgentResponse, { params: { id: 3 } }, () => {})).rejects.toThrow();
    expect(useAuth.getState().signedOut).toBe(true);
    useAuth.setState({ signedOut: false });
    await expect(api.upload(ops.uploadFile, { form: { file: new File(['x'], 'a.txt') } })).rejects.toThrow();
    expect(useAuth.getState().signedOut).toBe(true);
  });

  it('other refusals leave the app signed in', async () => {
    status = 404;
    await expect(api.call(ops.getAgent, { params: { id: 1 } })).rejects.toThrow();
    await expect(api.stream(ops.streamAgentResponse, { params: { id: 3 } }, () => {})).rejects.toThrow();
    await expect(api.upload(ops.uploadFile, { form: { file: new File(['x'], 'a.txt') } })).rejects.toThrow();
    expect(useAuth.getState().signedOut).toBe(false);
  });
});
