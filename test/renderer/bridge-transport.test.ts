// Node environment: its FormData, File and Response are the web platform ones the bridge transport uses.
import { describe, expect, it } from 'vitest';
import type { AgentDeskBridge, BridgeRequest } from '../../src-preload/api';
import { bridgeTransport } from '../../src-renderer/api/bridge-transport';
import { createClient } from '../../src-renderer/api/client';
import { ops } from '../../src-renderer/api/operations';

/** A bridge double: answers requests from a function and streams scripted chunks, recording cancels. */
function fakeBridge(opts: { status?: number; chunks?: string[]; hold?: boolean } = {}) {
  const requests: BridgeRequest[] = [];
  let canceled = 0;
  const bridge: AgentDeskBridge = {
    async request(req) {
      requests.push(req);
      return { status: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ data: [] }) };
    },
    stream(req, onChunk, onEnd) {
      requests.push(req);
      queueMicrotask(() => {
        for (const c of opts.chunks ?? []) onChunk(c);
        if (!opts.hold) onEnd(opts.status ?? 200);
      });
      return () => {
        canceled++;
      };
    },
    async openFiles() {
      return [];
    },
    async appInfo() {
      return { version: '0', platform: 'linux', apiUrl: null, dataDir: '/tmp' };
    },
  };
  return { bridge, requests, canceled: () => canceled };
}

describe('bridge transport', () => {
  it('sends JSON requests through the bridge with lower-cased headers back', async () => {
    const { bridge, requests } = fakeBridge();
    const res = await bridgeTransport(bridge).request({ method: 'GET', path: '/api/files' });
    expect(res.headers['content-type']).toBe('application/json');
    expect(requests[0]).toMatchObject({ method: 'GET', path: '/api/files' });
  });

  it('hands an error answer of a stream back whole, for the client to read', async () => {
    const { bridge } = fakeBridge({ status: 422, chunks: ['{"message":"The model field is required."}'] });
    await expect(createClient(bridgeTransport(bridge)).stream(ops.executeAgent, { params: { id: 1 }, body: { answers: {}, stream: true } }, () => undefined)).rejects.toMatchObject({ status: 422 });
  });

  it('cancels the bridge stream when the caller aborts', async () => {
    const { bridge, canceled } = fakeBridge({ hold: true, chunks: ['data: {"id":1}\n\n'] });
    const ac = new AbortController();
    const p = bridgeTransport(bridge).stream({ method: 'POST', path: '/api/agents/1/execute' }, { onChunk: () => undefined, signal: ac.signal });
    ac.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(canceled()).toBe(1);
  });

  it('encodes uploads as multipart bytes with their boundary', async () => {
    const { bridge, requests } = fakeBridge();
    const form = new FormData();
    form.append('file', new File(['hello'], 'a.txt', { type: 'text/plain' }));
    const progress: number[] = [];
    await bridgeTransport(bridge).upload('/api/files', form, { onProgress: (sent) => progress.push(sent) });
    const req = requests[0];
    expect(req.headers?.['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const text = new TextDecoder().decode(req.body as ArrayBuffer);
    expect(text).toContain('filename="a.txt"');
    expect(text).toContain('hello');
    expect(progress.at(-1)).toBe((req.body as ArrayBuffer).byteLength);
  });
});
