import type { Question } from '../../contract/agents.js';

/**
 * The catalog's question defaults for an agent seeded before the catalog had them (the Chat
 * agent's temperature near 0.7 rather than its first option, 0): a select question of the stored
 * agent takes the catalog's default only when it has none of its own, since the agent editor writes
 * one whenever a person picks a value; a missing default means nobody chose. Null when nothing
 * changes.
 */
export function withCatalogDefaults(stored: readonly Question[], catalog: readonly Question[]): Question[] | null {
  let changed = false;
  const next = stored.map((q) => {
    const own = catalog.find((c) => c.name === q.name && c.type === q.type);
    if (q.type !== 'select' || q.default !== undefined || own?.default === undefined || !(q.options ?? []).includes(own.default)) return q;
    changed = true;
    return { ...q, default: own.default };
  });
  return changed ? next : null;
}
