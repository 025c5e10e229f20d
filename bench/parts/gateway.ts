/**
 * The /v1 gateways' own cost: streaming `POST /v1/responses` and `POST /v1/messages` through
 * Agent Desk (real HTTP via listen(), the execution engine, a stored execution each) against the
 * same fake OpenAI-compatible provider called directly with the same conversation, alternating in
 * one run. Figure: median time from request to the first text delta (`response.output_text.delta`,
 * `content_block_delta` with `text_delta`, or the provider's first `delta.content`), and the
 * overhead each door adds to it (target ≤ 2 ms). /v1/chat/completions is timed alike for reference.
 *
 * The timing client runs in a worker thread, apart from the server, as every real client is: on
 * one thread its reads would wait behind whatever the server does after writing the first text
 * (the rest of the answer, the final record's fsync'd commit), which no separate client waits for.
 * GATEWAY_BENCH_CLIENT=inline runs it on the server's thread as before, for comparison.
 *
 * Rounds run until RUNS rounds or MAX_MS have passed (at least MIN_RUNS): a median of a few hundred
 * rounds moves by well under 0.1 ms between runs on a quiet machine. The added time is also given
 * as the median of each round's own difference (door minus direct in the same round), which load
 * drifting between rounds does not move.
 *
 * AGENT_DESK_FIRST_TOKEN_MARKS=1 adds a breakdown: the median time from the client's send to each
 * mark along the path (kernel/first-token-marks.ts: the door, the executions service, the
 * provider request, the first text, the first text frame written, the socket uncorked), per door.
 */
import type http from 'node:http';
import { Worker } from 'node:worker_threads';
import { timeStream, type StreamRequest, type StreamTiming } from '../helpers/stream-client.mjs';
import type { BenchPart, Figures } from '../run.js';
import { startDeskOnFake } from '../helpers/desk-on-fake.js';
import { midMedian as median, p90 } from '../helpers/stats.js';
import { mark, marksOn, takeMarks, type Mark } from '../../src-main/platform/kernel/first-token-marks.js';

const KEY = 'bench-key-gateway-0123456789';
const RUNS = Number(process.env.GATEWAY_BENCH_RUNS) || 300;
const MIN_RUNS = 60;
const MAX_MS = 30_000;
const WARMUP = 20;
const REPLY = 'The quick brown fox jumps over the lazy dog, and then it rests in the warm afternoon sun for a while.';

type Door = StreamRequest['door'];

/** Runs the timing client in a worker thread (default) or, with GATEWAY_BENCH_CLIENT=inline, on this thread beside the server. */
function startClient(): { time(req: StreamRequest): Promise<StreamTiming>; close(): Promise<void> } {
  if (process.env.GATEWAY_BENCH_CLIENT === 'inline') return { time: timeStream, close: async () => undefined };
  const worker = new Worker(new URL('../helpers/stream-client.mjs', import.meta.url), { execArgv: [] });
  let waiting: { resolve(t: StreamTiming): void; reject(e: Error): void } | null = null;
  worker.on('message', (m: { ok: boolean; result?: StreamTiming; error?: string }) => {
    const w = waiting;
    waiting = null;
    if (m.ok) w?.resolve(m.result!);
    else w?.reject(new Error(m.error));
  });
  worker.on('error', (err) => waiting?.reject(err));
  return {
    time: (req) =>
      new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        worker.postMessage(req);
      }),
    close: async () => void (await worker.terminate()),
  };
}

/** Is this written chunk the one carrying a door's first text (any door's text delta)? */
const carriesText = (chunk: unknown) => {
  const s = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) || chunk instanceof Uint8Array ? Buffer.from(chunk as Uint8Array).toString('utf8') : '';
  return s.includes('output_text.delta') || s.includes('"text_delta"') || (s.includes('"content":"') && !s.includes('"content":""'));
};

/** Marks the request's arrival and every write of its answer (the bench owns the server: the app is untouched). */
function markServer(server: http.Server): void {
  server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    mark('request in');
    const writeHead = res.writeHead;
    res.writeHead = function (this: http.ServerResponse, ...a: unknown[]) {
      mark('head written');
      return (writeHead as (...x: unknown[]) => http.ServerResponse).apply(this, a);
    } as typeof res.writeHead;
    const write = res.write;
    res.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
      const text = carriesText(chunk);
      const ok = (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
      mark(text ? 'text written' : 'frame written');
      return ok;
    } as typeof res.write;
  });
}

/**
 * Per door, the median time from the client's send to the first of each mark after it (marks
 * after the client read its first text are not counted), in order of that median.
 */
function breakdown(marks: Mark[], doorOf: (round: number) => Door | null): Record<Door, [string, number][]> {
  const offsets: Partial<Record<Door, Map<string, number[]>>> = {};
  let round = -1;
  let t0 = 0;
  let seen = new Set<string>();
  let door: Door | null = null;
  let open = false;
  for (const m of marks) {
    if (m.label === 'client send') {
      round++;
      door = doorOf(round);
      t0 = m.at;
      seen = new Set();
      open = true;
      continue;
    }
    if (!open || !door || seen.has(m.label)) continue;
    seen.add(m.label);
    const byLabel = (offsets[door] ??= new Map());
    if (!byLabel.has(m.label)) byLabel.set(m.label, []);
    byLabel.get(m.label)!.push(m.at - t0);
    if (m.label === 'client read text') open = false;
  }
  const out = {} as Record<Door, [string, number][]>;
  for (const [d, byLabel] of Object.entries(offsets) as [Door, Map<string, number[]>][]) {
    out[d] = [...byLabel.entries()].map(([label, xs]): [string, number] => [label, median(xs)]).sort((a, b) => a[1] - b[1]);
  }
  return out;
}

const part: BenchPart = {
  name: 'gateway',
  async run(): Promise<Figures> {
    const bench = await startDeskOnFake('gateway', KEY, REPLY);
    const { fake, server } = bench;
    if (marksOn()) markServer(server.server);
    const client = startClient();
    try {
      const question = 'Tell me about the fox.';
      const auth = { authorization: `Bearer ${KEY}` };
      const requests: Record<Door, StreamRequest> = {
        direct: { door: 'direct', url: `${fake.url}/chat/completions`, headers: {}, body: { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: question }] } },
        chat: { door: 'chat', url: `${server.url}/v1/chat/completions`, headers: auth, body: { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: question }] } },
        responses: { door: 'responses', url: `${server.url}/v1/responses`, headers: auth, body: { model: 'gpt-4o-mini', stream: true, input: question } },
        messages: {
          door: 'messages',
          url: `${server.url}/v1/messages`,
          headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
          body: { model: 'gpt-4o-mini', max_tokens: 1024, stream: true, messages: [{ role: 'user', content: question }] },
        },
      };
      const clientMarks: Mark[] = [];
      const runs = Object.fromEntries(
        Object.entries(requests).map(([d, req]) => [
          d,
          async () => {
            const t = await client.time(req);
            // The client's marks on this thread's clock, beside the server's.
            clientMarks.push({ label: 'client send', at: t.sentAt - performance.timeOrigin }, { label: 'client read text', at: t.textAt - performance.timeOrigin });
            return t;
          },
        ]),
      ) as Record<Door, () => Promise<StreamTiming>>;
      const doors = Object.keys(runs) as Door[];
      for (let i = 0; i < WARMUP; i++) for (const d of doors) await runs[d]();
      takeMarks();
      clientMarks.length = 0;
      const times: Record<Door, StreamTiming[]> = { direct: [], chat: [], responses: [], messages: [] };
      const order: Door[] = [];
      const started = performance.now();
      let rounds = 0;
      while (rounds < RUNS && (rounds < MIN_RUNS || performance.now() - started < MAX_MS)) {
        // Rotate the order so drift (GC, JIT, other load) hits every door alike.
        for (let k = 0; k < doors.length; k++) {
          const d = doors[(rounds + k) % doors.length];
          order.push(d);
          times[d].push(await runs[d]());
        }
        rounds++;
      }
      if (doors.some((d) => times[d].some((t) => t.text !== REPLY))) throw new Error('a stream lost text');
      const first = (d: Door) => median(times[d].map((t) => t.first));
      const added = (d: Door) => first(d) - first('direct');
      // Round i's door minus round i's direct: drift between rounds cancels out.
      const pairedAdded = (d: Door) => median(times[d].map((t, i) => t.first - times.direct[i].first));
      if (marksOn()) {
        const all = [...takeMarks(), ...clientMarks].sort((a, b) => a.at - b.at);
        const table = breakdown(all, (i) => order[i] ?? null);
        for (const d of doors) {
          process.stdout.write(`  breakdown ${d} (median ms from the client's send)\n`);
          let prev = 0;
          for (const [label, at] of table[d] ?? []) {
            process.stdout.write(`    ${label.padEnd(24)} ${at.toFixed(3).padStart(8)}  +${(at - prev).toFixed(3)}\n`);
            prev = at;
          }
        }
      }
      return {
        runs: rounds,
        'first text, direct median (ms)': first('direct'),
        'first text, /v1/responses median (ms)': first('responses'),
        'first text, /v1/responses p90 (ms)': p90(times.responses.map((t) => t.first)),
        'first text, /v1/responses added median (ms)': added('responses'),
        'first text, /v1/messages median (ms)': first('messages'),
        'first text, /v1/messages p90 (ms)': p90(times.messages.map((t) => t.first)),
        'first text, /v1/messages added median (ms)': added('messages'),
        'first text, /v1/chat/completions added median (ms)': added('chat'),
        'first text, /v1/responses added, paired median (ms)': pairedAdded('responses'),
        'first text, /v1/messages added, paired median (ms)': pairedAdded('messages'),
        'first text, /v1/chat/completions added, paired median (ms)': pairedAdded('chat'),
        'added ≤ 2 ms (responses and messages)': added('responses') <= 2 && added('messages') <= 2,
        'whole answer, /v1/responses ÷ direct (median)': median(times.responses.map((t) => t.done)) / median(times.direct.map((t) => t.done)),
        'whole answer, /v1/messages ÷ direct (median)': median(times.messages.map((t) => t.done)) / median(times.direct.map((t) => t.done)),
      };
    } finally {
      await client.close();
      await bench.close();
    }
  },
};

export default part;
