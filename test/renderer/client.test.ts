// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src-renderer/api/client';
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
    const { t, seen } = scripted(() => json(200, { message: 'success', collections: [{ id: 1, user_id: 1, name: 'default', display_name: 'Default' }], meta: { current_page: 1, last_page: 1, total: 1 } }));
    const res = await createClient(t).collections.list({ search: 'de fault', page: 2 });
    expect(res.collections[0].display_name).toBe('Default');
    expect(seen[0].path).toBe('/api/memory-collections?per_page=50&search=de+fault&page=2');
  });

  it('refuses an answer whose shape breaks the contract', async () => {
    const { t } = scripted(() => json(200, { message: 'success', collections: [{ id: 'x' }] }));
    await expect(createClient(t).collections.list()).rejects.toThrow(/Unexpected answer/);
  });

  it('turns error answers into ApiError, telling a missing route from a missing thing', async () => {
    const missingRoute = scripted(() => json(404, { message: 'Not found.' }));
    const err = await createClient(missingRoute.t).usage().catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.notAvailable).toBe(true);

    const missingThing = scripted(() => json(404, { message: 'Memory not found!' }));
    const err2 = await createClient(missingThing.t).memories.delete(9).catch((e) => e);
    expect(err2.notAvailable).toBe(false);
    expect(err2.message).toBe('Memory not found!');

    const invalid = scripted(() => json(422, { message: 'The memory field is required.', errors: { memory: ['The memory field is required.'] } }));
    const err3 = await createClient(invalid.t).memories.create('').catch((e) => e);
    expect(err3.status).toBe(422);
    expect(err3.errors).toEqual({ memory: ['The memory field is required.'] });
  });

  it('streams an execution event by event, whatever the chunking', async () => {
    const body = [event({ output: 'Hel' }), event({ output: 'lo' }), event({ status: 'completed', credits: 0.02 })].map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
    const chunks = body.match(/[\s\S]{1,7}/g)!;
    const { t, seen } = scripted(() => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, text: '' }), chunks);
    const events: string[] = [];
    const last = await createClient(t).executions.stream(1, { answers: { model: 'gpt-5' }, messages: [{ role: 'user', content: 'Hi' }] }, (e) => events.push(`${e.status}:${e.output}`));
    expect(events).toEqual(['running:Hel', 'running:lo', 'completed:']);
    expect(last?.credits).toBe(0.02);
    expect(JSON.parse(seen[0].body as string)).toMatchObject({ stream: true, answers: { model: 'gpt-5' } });
  });

  it('reports a refused execution (422) as an error, not as an empty stream', async () => {
    const { t } = scripted(() => json(422, { message: 'The model field is required.', errors: { model: ['The model field is required.'] } }));
    await expect(createClient(t).executions.stream(1, { answers: {} }, () => undefined)).rejects.toMatchObject({ status: 422, message: 'The model field is required.' });
  });

  it('returns a failed last event with its error code', async () => {
    const failed = event({ status: 'failed', error: { message: 'No provider is configured for model claude-x.', code: 'model_unavailable' } });
    const { t } = scripted(() => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, text: '' }), [`data: ${JSON.stringify(failed)}\n\n`]);
    const last = await createClient(t).executions.stream(1, { answers: {} }, () => undefined);
    expect(last?.error?.code).toBe('model_unavailable');
  });
});
