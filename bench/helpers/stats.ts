/** The p-th percentile (nearest rank) of samples. */
export const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** How long one call took, in ms. */
export const time = async (fn: () => unknown | Promise<unknown>): Promise<number> => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

/** The middle sample. */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The median proper: the middle sample, or the mean of the two middle ones for an even count. */
export const midMedian = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The sample at 90% of the sorted ones (index ⌊0.9·n⌋). */
export const p90 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
