import { describe, expect, it } from 'vitest';
import { operationTables, ops } from '../../src-renderer/api/operations';

describe('the operations the renderer calls by name', () => {
  it('holds every operation of its tables under its own name (no name shadows another)', () => {
    const names = operationTables.flatMap((t) => Object.keys(t));
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(ops).sort()).toEqual([...names].sort());
    for (const table of operationTables) for (const [name, op] of Object.entries(table)) expect(ops[name as keyof typeof ops]).toBe(op);
  });
});
