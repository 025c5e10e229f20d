/**
 * `/v1/embeddings`: throughput (texts per second) of the built-in embedder through Agent Desk's
 * OpenAI-compatible endpoint (real HTTP via listen(), the `openai` request shape, float and
 * base64 answers) against the same embedder instance called in-process, rounds alternating in
 * one run so that machine load hits both alike. Target: HTTP ≥ 0.8 of in-process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchPart, Figures } from '../run.js';
import { createPlatform } from '../../src-main/platform/platform.js';
import { listen } from '../../src-main/platform/transports/http/server.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';
import { median } from '../helpers/stats.js';

const KEY = 'bench-key-embeddings-0123456789';
const TEXTS = 192;
const BATCH = 16;
const ROUNDS = 6;

/** Sentences of passage-like length, all different (nothing is cached anywhere, but alike inputs would flatter no one). */
function sentences(n: number): string[] {
  const subjects = ['The harbour crane', 'A quiet library', 'Our delivery van', 'The night nurse', 'An old lighthouse', 'The school garden', 'A mountain railway', 'The bakery oven'];
  const verbs = ['moves', 'holds', 'protects', 'welcomes', 'repairs', 'lights', 'feeds', 'counts'];
  const objects = ['heavy containers', 'rare manuscripts', 'fragile parcels', 'tired patients', 'passing ships', 'young tomatoes', 'winter tourists', 'fresh loaves'];
  return Array.from({ length: n }, (_, i) => `${subjects[i % 8]} ${verbs[(i >> 3) % 8]} ${objects[(i >> 6) % 8]} every ${i + 2} minutes, as the schedule for week ${i} says.`);
}

const chunks = <T>(xs: T[], n: number): T[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n));

export default {
  name: 'embeddings',
  async run(): Promise<Figures> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-embeddings-'));
    const platform = createPlatform({ dataDir: dir, envApiKey: KEY, logger: createLogger('silent'), env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    const server = await listen(platform, { port: 0 });
    try {
      const { embedder, model } = platform.services.retrieval.current();
      const batches = chunks(sentences(TEXTS), BATCH);
      const inProcess = async () => {
        for (const b of batches) await embedder.embed(b);
      };
      const viaHttp = (encoding_format: 'float' | 'base64') => async () => {
        for (const input of batches) {
          const res = await fetch(`${server.url}/v1/embeddings`, {
            method: 'POST',
            headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model, input, encoding_format }),
          });
          const body = (await res.json()) as { data?: unknown[] };
          if (res.status !== 200 || body.data?.length !== input.length) throw new Error(`/v1/embeddings answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
        }
      };
      const rate = async (fn: () => Promise<void>) => {
        const t0 = performance.now();
        await fn();
        return TEXTS / ((performance.now() - t0) / 1000);
      };
      // Warm-up: the model loads in its process, the tokenizer builds its tables.
      await inProcess();
      await viaHttp('float')();
      const local: number[] = [];
      const float: number[] = [];
      const base64: number[] = [];
      const modes: [number[], () => Promise<void>][] = [
        [local, inProcess],
        [float, viaHttp('float')],
        [base64, viaHttp('base64')],
      ];
      // Each round starts with another mode, so none always runs first (or right after the same one).
      for (let r = 0; r < ROUNDS; r++) {
        for (let k = 0; k < modes.length; k++) {
          const [samples, fn] = modes[(r + k) % modes.length];
          samples.push(await rate(fn));
        }
      }
      const inProc = median(local);
      return {
        texts_per_round: TEXTS,
        batch_size: BATCH,
        rounds: ROUNDS,
        'in-process texts/s (median)': inProc,
        'via /v1/embeddings float texts/s (median)': median(float),
        'via /v1/embeddings base64 texts/s (median)': median(base64),
        'ratio float / in-process (target >= 0.8)': median(float) / inProc,
        'ratio base64 / in-process (target >= 0.8)': median(base64) / inProc,
        // The spread shows how much the machine's load moved the rounds.
        'in-process min..max texts/s': `${Math.min(...local).toFixed(1)}..${Math.max(...local).toFixed(1)}`,
        'float min..max texts/s': `${Math.min(...float).toFixed(1)}..${Math.max(...float).toFixed(1)}`,
        'base64 min..max texts/s': `${Math.min(...base64).toFixed(1)}..${Math.max(...base64).toFixed(1)}`,
        'meets target': median(float) / inProc >= 0.8 && median(base64) / inProc >= 0.8,
      };
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
} satisfies BenchPart;
