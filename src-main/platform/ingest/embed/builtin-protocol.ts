/** What the app and the built-in embedder's process (builtin-process.ts) say to each other. */

export type ToEmbedder =
  /** Where the packages are (resolved by the app); sent first. */
  | { op: 'init'; embeddings: string; model: string }
  | { op: 'embed'; id: number; texts: string[] }
  /** The caller left: stop this request at the next batch. */
  | { op: 'cancel'; id: number };

/** The vectors of a request, Float32 in base64 (`dims` floats each), or why there are none. */
export type FromEmbedder = { id: number; dims: number; vectors: string } | { id: number; error: string };

/** Float32 vectors from their base64 form (a copy: the decoded bytes need not be 4-aligned). */
export function unpackVectors(dims: number, base64: string): Float32Array[] {
  const bytes = Buffer.from(base64, 'base64');
  const flat = new Float32Array(Math.floor(bytes.length / 4));
  new Uint8Array(flat.buffer).set(bytes.subarray(0, flat.length * 4));
  const out: Float32Array[] = [];
  if (dims > 0) for (let i = 0; i + dims <= flat.length; i += dims) out.push(flat.subarray(i, i + dims));
  return out;
}
