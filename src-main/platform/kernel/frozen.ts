/**
 * Values frozen whole, so that a cache may hand the same one to every caller. Nobody can change
 * such a value, so its JSON text cannot change either: it is made once, on first use (an agent
 * read in a loop is then served without serializing it again). Plain data only (no Date or Map:
 * freezing does not freeze what they hold).
 */
const whole = new WeakSet<object>();
const texts = new WeakMap<object, string>();

function freezeAll(o: unknown): void {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) freezeAll(v);
  }
}

/** Freezes an object graph, and marks its root as frozen whole. */
export function deepFreeze<T>(o: T): T {
  freezeAll(o);
  if (o && typeof o === 'object') whole.add(o);
  return o;
}

/** The JSON text of a value; one frozen whole by deepFreeze is serialized once. */
export function jsonText(value: unknown): string {
  if (value === null || typeof value !== 'object' || !whole.has(value)) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) texts.set(value, (text = JSON.stringify(value)));
  return text;
}
