import type { Result, Router } from 'hono/router';

/** How many answers are kept, and the longest path kept (longer ones are matched every time). */
const KEPT = 1000;
const LONGEST = 256;

/**
 * A router that remembers its answer per method and path. The app's ~130 routes and its
 * middleware patterns make each trie search visit several branches (a few µs of a request that
 * costs tens); a client calling the same paths in a loop, the common case of a local API, pays
 * one Map lookup instead. The answer for a method and path only changes when a route is added,
 * which forgets everything. Bounded: the oldest answer goes first, so a client walking many ids
 * costs what the trie costs plus a Map insert. Hono reads a match's params and never writes them.
 */
export class RememberingRouter<T> implements Router<T> {
  readonly name: string;
  private readonly kept = new Map<string, Result<T>>();

  constructor(private readonly inner: Router<T>) {
    this.name = `${inner.name} (remembering)`;
  }

  add(method: string, path: string, handler: T): void {
    this.kept.clear();
    this.inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    if (path.length > LONGEST) return this.inner.match(method, path);
    const key = `${method} ${path}`;
    let answer = this.kept.get(key);
    if (answer === undefined) {
      answer = this.inner.match(method, path);
      if (this.kept.size >= KEPT) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(key, answer);
    }
    return answer;
  }
}
