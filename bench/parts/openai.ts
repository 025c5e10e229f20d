/**
 * OpenAI-compatible API: streaming `POST /v1/chat/completions` through Agent Desk (real
 * HTTP via listen(), the execution engine, a stored execution) against the same fake
 * OpenAI-compatible provider called directly with the same body, alternating, in one run.
 *
 *   - first content token: median time from request to the first `delta.content` chunk, and the
 *     overhead Agent Desk adds to it (target ≤ 5 ms)
 *   - first byte: the same for the first byte of the body (Agent Desk holds its headers until the
 *     first text so that early failures are real HTTP errors; the provider sends a role chunk at once)
 *   - whole answer: median time to `data: [DONE]`, as a ratio to direct
 *   - the OpenAI layer's own share: first content token via /v1 minus via the spec's streaming
 *     `POST /api/agents/1/execute` (same engine, same agent and model), so engine cost and machine
 *     load, which both paths share, cancel out
 */
import type { BenchPart, Figures } from '../run.js';
import { startDeskOnFake } from '../helpers/desk-on-fake.js';
import { midMedian as median, p90 } from '../helpers/stats.js';
import { readSSE } from '../../test/fixtures/sse-reader.js';

const KEY = 'bench-key-openai-0123456789';
const RUNS = 60;
const WARMUP = 10;
const REPLY = 'The quick brown fox jumps over the lazy dog, and then it rests in the warm afternoon sun for a while.';

interface Timing {
  firstByte: number;
  firstContent: number;
  done: number;
  text: string;
}

/** Times one OpenAI-format stream: first body byte, first content delta, `[DONE]`. */
async function timeStream(url: string, headers: Record<string, string>, body: unknown, format: 'openai' | 'execute' = 'openai'): Promise<Timing> {
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  let text = '';
  let firstByte = -1;
  let firstContent = -1;
  let done = -1;
  const onChunk = () => {
    if (firstByte < 0) firstByte = performance.now() - t0;
  };
  await readSSE(
    res,
    (data) => {
      if (data === '[DONE]') {
        done = performance.now() - t0;
        return;
      }
      const j = JSON.parse(data);
      if (format === 'execute' && j.status === 'completed') done = performance.now() - t0;
      const c = format === 'execute' ? j.output : j.choices?.[0]?.delta?.content;
      if (c) {
        if (firstContent < 0) firstContent = performance.now() - t0;
        text += c;
      }
    },
    { onChunk },
  );
  if (done < 0) throw new Error(`${url}: the stream did not complete`);
  return { firstByte, firstContent, done, text };
}

const part: BenchPart = {
  name: 'openai',
  async run(): Promise<Figures> {
    const bench = await startDeskOnFake('openai', KEY, REPLY);
    const { fake, platform, server } = bench;
    try {
      const body = { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Tell me about the fox.' }] };
      const viaDesk = () => timeStream(`${server.url}/v1/chat/completions`, { authorization: `Bearer ${KEY}` }, body);
      const direct = () => timeStream(`${fake.url}/chat/completions`, {}, body);
      const execBody = { stream: true, model: 'gpt-4o-mini', temperature: '1', tools: 'no-tools', messages: body.messages };
      const viaExecute = () => timeStream(`${server.url}/api/agents/1/execute`, { authorization: `Bearer ${KEY}` }, execBody, 'execute');
      for (let i = 0; i < WARMUP; i++) {
        await viaDesk();
        await viaExecute();
        await direct();
      }
      const desk: Timing[] = [];
      const exec: Timing[] = [];
      const raw: Timing[] = [];
      const order = [() => viaDesk().then((t) => desk.push(t)), () => viaExecute().then((t) => exec.push(t)), () => direct().then((t) => raw.push(t))];
      for (let i = 0; i < RUNS; i++) {
        // Rotate the order so drift (GC, JIT, the other engineers' load) hits all three alike.
        for (let k = 0; k < order.length; k++) await order[(i + k) % order.length]();
      }
      if ([...desk, ...exec, ...raw].some((t) => t.text !== REPLY)) throw new Error('a stream lost text');
      const stored = platform.db.prepare("SELECT count(*) AS n FROM executions WHERE status = 'succeeded'").get() as { n: number };
      if (stored.n !== 2 * (RUNS + WARMUP)) throw new Error(`expected ${2 * (RUNS + WARMUP)} stored executions, found ${stored.n}`);

      const m = (ts: Timing[], k: keyof Omit<Timing, 'text'>) => median(ts.map((t) => t[k]));
      const addedFirstContent = m(desk, 'firstContent') - m(raw, 'firstContent');
      return {
        runs: RUNS,
        'first content token, direct median (ms)': m(raw, 'firstContent'),
        'first content token, via /v1 median (ms)': m(desk, 'firstContent'),
        'first content token, via /v1 p90 (ms)': p90(desk.map((t) => t.firstContent)),
        'first content token, added median (ms)': addedFirstContent,
        'first content token, added ≤ 5 ms': addedFirstContent <= 5,
        'first byte, direct median (ms)': m(raw, 'firstByte'),
        'first byte, via /v1 median (ms)': m(desk, 'firstByte'),
        'first byte, added median (ms)': m(desk, 'firstByte') - m(raw, 'firstByte'),
        'whole answer, via /v1 ÷ direct (median)': m(desk, 'done') / m(raw, 'done'),
        'first content token, via execute median (ms)': m(exec, 'firstContent'),
        'first content token, /v1 minus execute (ms)': m(desk, 'firstContent') - m(exec, 'firstContent'),
        'whole answer, via /v1 ÷ via execute (median)': m(desk, 'done') / m(exec, 'done'),
        'stored executions': stored.n,
      };
    } finally {
      await bench.close();
    }
  },
};

export default part;
