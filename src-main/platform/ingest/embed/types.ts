/** Something that turns texts into vectors of one fixed size (one "space"). */
export interface Embedder {
  /** Names the vector space: vectors of two embedders with different keys are never compared. */
  readonly key: string;
  /** Vector size, known after the first call (0 before). */
  dims(): number;
  /** Vectors of `texts`; when `signal` aborts, the work stops and the promise rejects with its reason. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  close(): Promise<void>;
}

export class EmbedderError extends Error {
  constructor(
    message: string,
    readonly code: 'embedder_unreachable' | 'embedder_failed' | 'embedder_unavailable',
  ) {
    super(message);
  }
}

/** Unit length, so a dot product is the cosine similarity whatever the model returns. */
export function normalize(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  let n = 0;
  for (let i = 0; i < out.length; i++) n += out[i] * out[i];
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < out.length; i++) out[i] /= n;
  return out;
}

/** What an aborted embedding rejects with: the signal's reason, an AbortError if it gave none. */
export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The embedding was aborted.', 'AbortError');
}
