import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makePlatform } from '../api/helpers.js';
import { ExecutionsStore } from '../../src-main/platform/modules/executions/store.js';
import { nowMicros } from '../../src-main/platform/kernel/time.js';
import { CHAT, chatBody, insertExecution, poll, withFake } from './helpers.js';
import { tokenGate } from '../fixtures/token-gate.js';
import { until } from '../fixtures/until.js';

/**
 * Session search and the start of an execution: creating one writes nothing to the search index
 * (that commit is on the way to a streamed answer's first text); its first progress write indexes
 * it, once; its end indexes it again with the whole answer.
 */
describe('session search is kept off the execution start', () => {
  let p: ReturnType<typeof makePlatform>;
  let store: ExecutionsStore;
  beforeAll(() => {
    p = makePlatform();
    store = new ExecutionsStore(p.db);
  });
  afterAll(async () => {
    store.close();
    await p.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
  });

  const indexed = (id: number) => p.db.prepare('SELECT body FROM session_search WHERE rowid = ?').all(id) as { body: string }[];
  const found = async (q: string) => (await call(p, 'GET', `/api/sessions?q=${encodeURIComponent(q)}`)).json.data.map((s: { id: number }) => s.id);

  it('a new execution is not indexed; its first progress write indexes it once; its end re-indexes the whole answer', async () => {
    const now = nowMicros();
    const id = insertExecution(p, store, 'Quando é a manutenção?', now);
    expect(indexed(id)).toEqual([]);

    store.progress(id, 'running', 'Na próxima', null, now + 1, null, true);
    expect(indexed(id)).toEqual([{ body: 'Quando é a manutenção?\nNa próxima' }]);
    expect(await found('manutencao')).toEqual([id]);
    // Again (another process's flush, a retry): still one entry, and later writes need none.
    store.progress(id, 'running', 'Na próxima semana', null, now + 2, null, true);
    store.progress(id, 'running', 'Na próxima semana, às 9h', null, now + 3);
    expect(indexed(id)).toHaveLength(1);

    store.finish({ id, status: 'succeeded', output: 'Na próxima semana, às 9h.', errorMessage: null, errorCode: null, credits: 1, inputTokens: 1, outputTokens: 1, outputFileId: null, provider: null, now: now + 4 });
    expect(indexed(id)).toEqual([{ body: 'Quando é a manutenção?\nNa próxima semana, às 9h.' }]);
    expect(await found('9H')).toEqual([id]);
  });

  it('a run that ends before its first progress write is indexed by its end', async () => {
    const now = nowMicros();
    const id = insertExecution(p, store, 'Pergunta rápida', now);
    store.finish({ id, status: 'failed', output: '', errorMessage: 'no model', errorCode: 'model_unavailable', credits: 0, inputTokens: 0, outputTokens: 0, outputFileId: null, provider: null, now: now + 1 });
    expect(await found('rapida')).toEqual([id]);
  });
});

describe('a running execution through the service', () => {
  it('is found by session search while it runs (its first progress write indexed it), and with its whole answer after', async () => {
    const held = tokenGate();
    const env = await withFake({ tokens: ['Lembrete ', 'anotado', '.'], gate: held.gate });
    try {
      held.allow(1);
      const started = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: chatBody('Anote a revisão do carro') });
      const id = started.json.responses?.[0]?.id ?? started.json.id;
      expect(typeof id).toBe('number');
      const found = async (q: string) => (await call(env.p, 'GET', `/api/sessions?q=${encodeURIComponent(q)}`)).json.data.map((s: { id: number }) => s.id);
      await until('the running execution to be searchable', async () => (await found('revisao')).includes(id));
      expect((await call(env.p, 'GET', `/api/agent-responses/${id}`)).json.status).toBe('running');
      held.allow(Infinity);
      await poll(env.p, id, (e) => e.status === 'succeeded');
      expect(await found('ANOTADO')).toEqual([id]);
    } finally {
      held.allow(Infinity);
      await env.close();
    }
  });
});
