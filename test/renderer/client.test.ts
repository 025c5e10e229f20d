// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src-renderer/api/client';
import { ops } from '../../src-renderer/api/operations';
import { ApiError } from '../../src-renderer/api/errors';
import type { RawResponse, RequestInit, Transport } from '../../src-renderer/api/transport';

/** A transport that answers from a script and records what was asked. */
function scripted(answer: (req: RequestInit) => RawResponse, chunks: string[] = []) {
  const seen: RequestInit[] = [];
  const t: Transport = {
    kind: 'http',
    async request(req) {
      seen.push(req);
      return answer(req);
    },
    async stream(req, h) {
      seen.push(req);
      const res = answer(req);
      if (res.status >= 400) return { status: res.status, text: res.text };
      for (const c of chunks) h.onChunk(c);
      return { status: res.status };
    },
    async upload(path) {
      seen.push({ method: 'POST', path });
      return answer({ method: 'POST', path });
    },
  };
  return { t, seen };
}

const json = (status: number, body: unknown): RawResponse => ({ status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(body) });

const event = (over: Record<string, unknown>) => ({
  id: 5,
  status: 'running',
  output: '',
  error: null,
  credits: null,
  root_id: 5,
  created_at: '2026-11-21T08:52:01.123456Z',
  updated_at: '2026-11-21T08:52:01.123456Z',
  template_id: 1,
  ...over,
});

describe('api client', () => {
  it('parses answers with the contract and builds query strings', async () => {
    const { t, seen } = scripted(() => json(200, { message: 'success', collections: [{ id: 1, user_id: 1, name: 'default', display_name: 'Default', in_context: true }], meta: { current_page: 1, last_page: 1, total: 1 } }));
    const res = await createClient(t).call(ops.listCollections, { query: { per_page: 50, search: 'de fault', page: 2 } });
    expect(res.collections[0].display_name).toBe('Default');
    expect(seen[0].path).toBe('/api/memory-collections?per_page=50&search=de+fault&page=2');
  });

  it('refuses an answer whose shape breaks the contract', async () => {
    const { t } = scripted(() => json(200, { message: 'success', collections: [{ id: 'x' }] }));
    await expect(createClient(t).call(ops.listCollections, {})).rejects.toThrow(/Unexpected answer/);
  });

  it('turns error answers into ApiError, telling a missing route from a missing thing', async () => {
    const missingRoute = scripted(() => json(404, { message: 'Not found.' }));
    const err = await createClient(missingRoute.t).call(ops.getUsage, { query: { days: 30 } }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.notAvailable).toBe(true);

    const missingThing = scripted(() => json(404, { message: 'Memory not found!' }));
    const err2 = await createClient(missingThing.t).call(ops.deleteMemory, { params: { memoryId: 9 } }).catch((e) => e);
    expect(err2.notAvailable).toBe(false);
    expect(err2.message).toBe('Memory not found!');

    const invalid = scripted(() => json(422, { message: 'The memory field is required.', errors: { memory: ['The memory field is required.'] } }));
    const err3 = await createClient(invalid.t).call(ops.createMemory, { body: { memory: '' } }).catch((e) => e);
    expect(err3.status).toBe(422);
    expect(err3.errors).toEqual({ memory: ['The memory field is required.'] });
  });

  it('streams an execution event by event, whatever the chunking', async () => {
    const body = [event({ output: 'Hel' }), event({ output: 'lo' }), event({ status: 'completed', credits: 0.02 })].map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
    const chunks = body.match(/[\s\S]{1,7}/g)!;
    const { t, seen } = scripted(() => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, text: '' }), chunks);
    const events: string[] = [];
    const last = await createClient(t).stream(ops.executeAgent, { params: { id: 1 }, body: { answers: { model: 'gpt-5' }, messages: [{ role: 'user', content: 'Hi' }], stream: true } }, (e) => events.push(`${e.status}:${e.output}`));
    expect(events).toEqual(['running:Hel', 'running:lo', 'completed:']);
    expect(last?.credits).toBe(0.02);
    expect(JSON.parse(seen[0].body as string)).toMatchObject({ stream: true, answers: { model: 'gpt-5' } });
  });

  it('reports a refused execution (422) as an error, not as an empty stream', async () => {
    const { t } = scripted(() => json(422, { message: 'The model field is required.', errors: { model: ['The model field is required.'] } }));
    await expect(createClient(t).stream(ops.executeAgent, { params: { id: 1 }, body: { answers: {}, stream: true } }, () => undefined)).rejects.toMatchObject({ status: 422, message: 'The model field is required.' });
  });

  it('returns a failed last event with its error code', async () => {
    const failed = event({ status: 'failed', error: { message: 'No provider is configured for model claude-x.', code: 'model_unavailable' } });
    const { t } = scripted(() => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, text: '' }), [`data: ${JSON.stringify(failed)}\n\n`]);
    const last = await createClient(t).stream(ops.executeAgent, { params: { id: 1 }, body: { answers: {}, stream: true } }, () => undefined);
    expect(last?.error?.code).toBe('model_unavailable');
  });
});

describe('the special forms, generic over the operation', () => {
  it('writes ids held as numbers into the path, encoded', async () => {
    const { t, seen } = scripted(() => json(200, { id: 7, deleted: true }));
    await createClient(t).call(ops.deleteMemory, { params: { memoryId: 7 } }).catch(() => undefined);
    expect(seen[0]).toMatchObject({ method: 'DELETE', path: '/api/memories/7' });
  });

  it("sends an upload's declared fields in order, a file under its own name, and parses the answer", async () => {
    const forms: FormData[] = [];
    const { t } = scripted(() => json(200, { text: 'olá' }));
    const client = createClient({
      ...t,
      async upload(path, form) {
        forms.push(form);
        expect(path).toBe('/v1/audio/transcriptions');
        return json(200, { text: 'olá' });
      },
    });
    const out = await client.upload(ops.createTranscription, { form: { model: 'default', language: undefined, file: new File(['x'], 'dictation.webm', { type: 'audio/webm' }) } });
    expect(out.text).toBe('olá');
    expect([...forms[0].keys()]).toEqual(['model', 'file']);
    expect((forms[0].get('file') as File).name).toBe('dictation.webm');
  });

  it('reads an export with the name the platform gives, or none', async () => {
    const named = scripted(() => ({ status: 200, headers: { 'content-type': 'text/markdown', 'content-disposition': "attachment; filename=\"x.md\"; filename*=UTF-8''Ol%C3%A1.md" }, text: '# Olá' }));
    expect(await createClient(named.t).bytes(ops.exportSession, { params: { id: 4 }, query: { format: 'md' } })).toEqual({ text: '# Olá', filename: 'Olá.md', type: 'text/markdown' });
    expect(named.seen[0].path).toBe('/api/sessions/4/export?format=md');
    const bare = scripted(() => ({ status: 200, headers: {}, text: '{}' }));
    expect((await createClient(bare.t).bytes(ops.exportSession, { params: { id: 4 }, query: { format: 'json' } })).filename).toBeNull();
    const missing = scripted(() => json(404, { message: 'Session not found' }));
    await expect(createClient(missing.t).bytes(ops.exportSession, { params: { id: 4 } })).rejects.toMatchObject({ status: 404, message: 'Session not found' });
  });

  it('streams an events-only operation with its headers and no body', async () => {
    const { t, seen } = scripted(() => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, text: '' }), [`id: 3\ndata: ${JSON.stringify(event({ status: 'completed' }))}\n\n`]);
    const ids: (string | undefined)[] = [];
    const last = await createClient(t).stream(ops.streamAgentResponse, { params: { id: 5 }, headers: { 'last-event-id': '2' } }, (_e, id) => ids.push(id));
    expect(last?.status).toBe('completed');
    expect(ids).toEqual(['3']);
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/api/agent-responses/5/stream', body: undefined });
    expect(seen[0].headers).toMatchObject({ accept: 'text/event-stream', 'last-event-id': '2' });
  });
});
