/**
 * `/v1/embeddings` does bounded work that ends with its client. OpenAI's limits (CONTRACT.md):
 * at most 2,048 inputs, 8,192 tokens per input and 300,000 tokens per request, each a 400 in
 * OpenAI's shape with `param: "input"`, refused before anything is embedded. A request whose
 * client leaves stops embedding: measured as the CPU time of this process and the processes under it
 * (the built-in embedder is one), which stops growing once the client is gone. 1 M characters in one input used to
 * run for 15 minutes after the client had given up.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, http, startServer, type TestServer } from '../openai/server.js';
import { limit, until } from '../fixtures/until.js';

/** CPU time (user + system, clock ticks of 10 ms) of the processes under `root`, from /proc, in ms. */
function descendantsCpuMs(root: number): number {
  const stats = new Map<number, string[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      stats.set(Number(name), stat.slice(stat.lastIndexOf(')') + 2).split(' '));
    } catch {
      // gone meanwhile
    }
  }
  let ms = 0;
  for (const [pid, f] of stats) {
    let p = Number(f[1]);
    for (let n = 0; p && p !== root && n < 64; n++) p = Number(stats.get(p)?.[1] ?? 0);
    if (p === root && pid !== root) ms += (Number(f[11]) + Number(f[12])) * 10;
  }
  return ms;
}

/** `n` tokens of o200k: " hello" is one token. */
const tokens = (n: number) => 'hello' + ' hello'.repeat(n - 1);

describe('/v1/embeddings limits', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
  }, limit(60_000));
  afterAll(() => s?.close());

  const embed = (input: unknown) => http(s, 'POST', '/v1/embeddings', { model: 'use-lite-512', input });
  const refusedOnInput = (r: { status: number; json: any }) => {
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ type: 'invalid_request_error', param: 'input' });
    expect(typeof r.json.error.message).toBe('string');
  };

  it('refuses more than 2,048 inputs', async () => {
    const r = await embed(Array.from({ length: 2049 }, (_, i) => `text ${i}`));
    refusedOnInput(r);
  });

  it('refuses an input over 8,192 tokens, naming it, before embedding anything', async () => {
    const embedder = s.p.services.retrieval.current().embedder as { running?: boolean };
    const r = await embed(['a short one', tokens(9_000)]);
    refusedOnInput(r);
    expect(r.json.error.message).toMatch(/input\[1\].*8,192 tokens per input/);
    refusedOnInput(await embed(tokens(8_193)));
    // A million characters in one input: refused by its count, never handed to the embedder.
    refusedOnInput(await embed('x'.repeat(1_000_000)));
    expect(embedder.running).toBe(false);
  });

  it('refuses more than 300,000 tokens in all', async () => {
    const r = await embed(Array.from({ length: 40 }, () => tokens(7_900)));
    refusedOnInput(r);
    expect(r.json.error.message).toMatch(/300,000 tokens/);
  });

  it('embeds at the limits of one input', async () => {
    const r = await embed(['fine', tokens(100)]);
    expect(r.status).toBe(200);
    expect(r.json.data).toHaveLength(2);
  });
});

describe('an abandoned /v1/embeddings request', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
  }, limit(60_000));
  afterAll(() => s?.close());

  /** CPU time of this process (all its threads) and of the processes under it (the built-in embedder is one), in ms. */
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000 + descendantsCpuMs(process.pid);
  };

  it('stops using CPU once its client leaves', async () => {
    // Within every limit, and minutes of the built-in embedder's work: 1,200 texts of ~180 tokens.
    const texts = Array.from({ length: 1_200 }, (_, i) => `Passage ${i}: ${'bees tend the hive and carry pollen between the flowers of the valley '.repeat(14)}`);
    // The embedder's calls, seen from outside: which texts reached it, and when its work was over.
    const embedder = s.p.services.retrieval.current().embedder as { running?: boolean; embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> };
    const handed: number[] = [];
    let settled = false;
    const embed = embedder.embed.bind(embedder);
    embedder.embed = (t, signal) => {
      handed.push(t.length);
      const work = embed(t, signal);
      if (t.length === texts.length) work.then(() => (settled = true), () => (settled = true));
      return work;
    };
    const client = new AbortController();
    const sent = fetch(`${s.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'use-lite-512', input: texts }),
      signal: client.signal,
    }).catch((err: Error) => err);
    // The embedder has the texts and is at work on them (this process's CPU busy with it).
    await until('the texts handed to the embedder', () => handed.includes(texts.length));
    const atStart = cpuMs();
    await until('the embedder to burn CPU', () => cpuMs() - atStart > 1_000, 120_000);

    client.abort();
    expect(await sent).toBeInstanceOf(Error);

    // Waited by condition. Before, the embedder went on with every text for minutes at a full core.
    await until('the embedding work to end', () => settled, 60_000);
    let last = cpuMs();
    let lastAt = performance.now();
    await until(
      'the CPU use to stop growing',
      () => {
        const now = performance.now();
        const cpu = cpuMs();
        const busy = (cpu - last) / Math.max(1, now - lastAt);
        last = cpu;
        lastAt = now;
        return busy < 0.25;
      },
      60_000,
      250,
    );
    // Nothing else waited on the built-in embedder's thread: it was ended with the request.
    expect(embedder.running).toBe(false);
  }, limit(150_000));
});
