import { nextTurn } from './turns.js';

/**
 * Work written once as a generator whose `yield`s mark where it may pause, run two ways: at once
 * (tests, command-line tools that serve nothing yet) or a step per turn of the event loop (the
 * app's and the server's start, so no single turn holds the loop for the whole of it).
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs every step now, in this turn. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Runs one step per turn of the event loop. */
export async function runStepsYielding<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await nextTurn();
  }
}
