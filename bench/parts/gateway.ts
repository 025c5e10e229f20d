/**
 * The /v1 gateways' own cost: streaming `POST /v1/responses` and `POST /v1/messages` through
 * Agent Desk (real HTTP via listen(), the execution engine, a stored execution each) against the
 * same fake OpenAI-compatible provider called directly with the same conversation, alternating in
 * one run. Figure: median time from request to the first text delta (`response.output_text.delta`,
 * `content_block_delta` with `text_delta`, or the provider's first `delta.content`), and the
 * overhead each door adds to it (target ≤ 2 ms). /v1/chat/completions is timed alike for reference.
 */
import type { BenchPart, Figures } from '../run.js';
import { startDeskOnFake } from '../helpers/desk-on-fake.js';
import { midMedian as median, p90 } from '../helpers/stats.js';

const KEY = 'bench-key-gateway-0123456789';
const RUNS = 60;
const WARMUP = 10;
const REPLY = 'The quick brown fox jumps over the lazy dog, and then it rests in the warm afternoon sun for a while.';

type Door = 'direct' | 'chat' | 'responses' | 'messages';

/** The text of one SSE event's data, when it is a text delta of that door's format. */
function textOf(door: Door, data: string): string | null {
  if (data === '[DONE]') return null;
  const j = JSON.parse(data);
  if (door === 'responses') return j.type === 'response.output_text.delta' ? j.delta : null;
  if (door === 'messages') return j.type === 'content_block_delta' && j.delta?.type === 'text_delta' ? j.delta.text : null;
  return j.choices?.[0]?.delta?.content || null;
}

const isEnd = (door: Door, data: string) =>
  door === 'responses' ? data.includes('"type":"response.completed"') : door === 'messages' ? data.includes('"type":"message_stop"') : data === '[DONE]';

/** Times one stream: first text delta and end; returns the text too. */
async function timeStream(door: Door, url: string, headers: Record<string, string>, body: unknown): Promise<{ first: number; done: number; text: string }> {
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  let text = '';
  let first = -1;
  let done = -1;
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    buf += dec.decode(r.value, { stream: true });
    let i: number;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const data = block.split('\n').find((l) => l.startsWith('data: '))?.slice(6);
      if (data === undefined) continue;
      const t = textOf(door, data);
      if (t) {
        if (first < 0) first = performance.now() - t0;
        text += t;
      }
      if (isEnd(door, data)) done = performance.now() - t0;
    }
  }
  if (done < 0) throw new Error(`${url}: the stream did not complete`);
  return { first, done, text };
}

const part: BenchPart = {
  name: 'gateway',
  async run(): Promise<Figures> {
    const bench = await startDeskOnFake('gateway', KEY, REPLY);
    const { fake, server } = bench;
    try {
      const question = 'Tell me about the fox.';
      const auth = { authorization: `Bearer ${KEY}` };
      const runs: Record<Door, () => ReturnType<typeof timeStream>> = {
        direct: () => timeStream('direct', `${fake.url}/chat/completions`, {}, { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: question }] }),
        chat: () => timeStream('chat', `${server.url}/v1/chat/completions`, auth, { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: question }] }),
        responses: () => timeStream('responses', `${server.url}/v1/responses`, auth, { model: 'gpt-4o-mini', stream: true, input: question }),
        messages: () =>
          timeStream('messages', `${server.url}/v1/messages`, { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' }, { model: 'gpt-4o-mini', max_tokens: 1024, stream: true, messages: [{ role: 'user', content: question }] }),
      };
      const doors = Object.keys(runs) as Door[];
      for (let i = 0; i < WARMUP; i++) for (const d of doors) await runs[d]();
      const times: Record<Door, { first: number; done: number; text: string }[]> = { direct: [], chat: [], responses: [], messages: [] };
      for (let i = 0; i < RUNS; i++) {
        // Rotate the order so drift (GC, JIT, other load) hits every door alike.
        for (let k = 0; k < doors.length; k++) {
          const d = doors[(i + k) % doors.length];
          times[d].push(await runs[d]());
        }
      }
      if (doors.some((d) => times[d].some((t) => t.text !== REPLY))) throw new Error('a stream lost text');
      const first = (d: Door) => median(times[d].map((t) => t.first));
      const added = (d: Door) => first(d) - first('direct');
      return {
        runs: RUNS,
        'first text, direct median (ms)': first('direct'),
        'first text, /v1/responses median (ms)': first('responses'),
        'first text, /v1/responses p90 (ms)': p90(times.responses.map((t) => t.first)),
        'first text, /v1/responses added median (ms)': added('responses'),
        'first text, /v1/messages median (ms)': first('messages'),
        'first text, /v1/messages p90 (ms)': p90(times.messages.map((t) => t.first)),
        'first text, /v1/messages added median (ms)': added('messages'),
        'first text, /v1/chat/completions added median (ms)': added('chat'),
        'added ≤ 2 ms (responses and messages)': added('responses') <= 2 && added('messages') <= 2,
        'whole answer, /v1/responses ÷ direct (median)': median(times.responses.map((t) => t.done)) / median(times.direct.map((t) => t.done)),
        'whole answer, /v1/messages ÷ direct (median)': median(times.messages.map((t) => t.done)) / median(times.direct.map((t) => t.done)),
      };
    } finally {
      await bench.close();
    }
  },
};

export default part;
