/** Resolves in the loop's next check phase: I/O that is due runs first. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Resolves one whole iteration of the loop later, after its timers phase. Called from a request's
 * handler, `nextTurn` would still resolve in that same iteration (poll, then check), so the
 * request's work and what follows would hold the loop as one long turn.
 */
export const nextIteration = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
