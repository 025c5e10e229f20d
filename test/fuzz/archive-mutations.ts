/**
 * Hostile changes to an honest export archive, by category, for the archive importer's fuzz
 * (archive-fuzz.test.ts). Each arbitrary gives a function that changes a deep copy of the
 * archive's tables in place and says whether it put a reference outside the archive (so the
 * import, if it accepts the archive, must answer with a note).
 */
import fc from 'fast-check';
import { hostileValue, NASTY_NUMBERS, NASTY_STRINGS } from './arbitraries.js';

export type Tables = Record<string, unknown>;
type Row = Record<string, unknown>;
export interface Mutation {
  describe: string;
  apply(t: Tables): void;
  /** true when the change names something outside the archive that the import must drop, with a note */
  dangling?: boolean;
}

const rowsOf = (t: Tables, name: string): Row[] => (Array.isArray(t[name]) ? (t[name] as Row[]) : []);
const pick = <T>(list: readonly T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined);

/** Plain values of the wrong type or out of range (what a JSON cell can hold), and nested ones (refused whole). */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(...NASTY_STRINGS, ...NASTY_NUMBERS, null, true, false, '', '1', '2026-11-21T08:52:01Z', -1, 0, 2 ** 53, 1.5) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: hostileValue.filter((v) => typeof v !== 'string' || v.length < 200_000) },
);

/** 1. A cell of an existing column replaced by a value of the wrong type. */
export const wrongType: fc.Arbitrary<Mutation> = fc.tuple(fc.nat(), fc.nat(), fc.nat(), wrongValue).map(([ti, ri, ci, v]) => ({
  describe: `wrong type #${ti}/${ri}/${ci} = ${JSON.stringify(v)?.slice(0, 60)}`,
  apply(t) {
    const table = pick(Object.keys(t).filter((k) => rowsOf(t, k).length), ti);
    if (!table) return;
    const row = pick(rowsOf(t, table), ri)!;
    const col = pick(Object.keys(row), ci);
    if (col) row[col] = v;
  },
}));

/** Names a hostile archive adds: prototype keys, SQL, other tables' columns, this table's own columns under other cases. */
const columnName = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'evil', 'user_id', 'workspace_id', 'created_by', 'secret', 'tool_servers', 'source', 'remote_id', 'fkey', 'events', 'rowid', 'oid', 'ID', 'Title', 'id"; DROP TABLE agents; --', '"', ''),
  fc.string({ minLength: 1, maxLength: 20 }),
);

/** 2. A column added to a row (known to another table, or to none). */
export const unknownColumn: fc.Arbitrary<Mutation> = fc.tuple(fc.nat(), fc.nat(), columnName, wrongValue).map(([ti, ri, name, v]) => ({
  describe: `column ${JSON.stringify(name)} = ${JSON.stringify(v)?.slice(0, 60)}`,
  apply(t) {
    const table = pick(Object.keys(t).filter((k) => rowsOf(t, k).length), ti);
    if (!table) return;
    const row = pick(rowsOf(t, table), ri)!;
    Object.defineProperty(row, name, { value: v, enumerable: true, configurable: true, writable: true });
  },
}));

/**
 * 3. A reference to an id outside the archive: one of the importer's own ids (`importer` gives
 * them per kind), a large or edge id, or an MCP server id list for an agent.
 */
export function danglingReference(importer: { agents: number[]; files: number[]; collections: number[]; servers: number[] }): fc.Arbitrary<Mutation> {
  const refs = [
    ['memories', 'collection_id', 'collections'],
    ['webhooks', 'agent_id', 'agents'],
    ['agent_files', 'agent_id', 'agents'],
    ['agent_files', 'file_id', 'files'],
    ['file_passages', 'file_id', 'files'],
    ['agents', 'tool_servers', 'servers'],
  ] as const;
  return fc.tuple(fc.constantFrom(...refs), fc.nat(), fc.nat(), fc.oneof(fc.constant(-1), fc.integer({ min: 1, max: 2 ** 31 }), fc.constantFrom(2 ** 53 - 1)), fc.integer({ min: 1, max: 6 })).map(
    ([[table, col, kind], ri, ii, far, n]) => ({
      describe: `${table}.${col} -> outside (${kind})`,
      dangling: true,
      apply(t) {
        const row = pick(rowsOf(t, table), ri);
        if (!row) return;
        // The archive's own ids of that kind are inside; anything else is outside.
        const inside = new Set(rowsOf(t, kind === 'collections' ? 'memory_collections' : kind).map((r) => Number(r.id)));
        const theirs = importer[kind].filter((id) => !inside.has(id));
        const outside = (k: number) => (far > 0 && !inside.has(far) ? far + k : (pick(theirs, ii + k) ?? 2 ** 31 - k));
        if (col === 'tool_servers') {
          row.tool_servers = JSON.stringify([...new Set(Array.from({ length: n }, (_, k) => outside(k)))].map((server_id) => ({ server_id, tools: k2(server_id) })));
        } else row[col] = outside(0);
      },
    }),
  );
}
const k2 = (id: number) => (id % 2 ? null : ['read_file', 'write_file']);

/** 4. The shape of a table: not a list, rows that are not rows, rows dropped or duplicated (with or without a new id). */
export const tableShape: fc.Arbitrary<Mutation> = fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 5 }), hostileValue).map(([ti, ri, how, v]) => ({
  describe: `table shape #${how} on table #${ti}`,
  apply(t) {
    const names = Object.keys(t);
    const table = pick(names, ti)!;
    const rows = rowsOf(t, table);
    if (how === 0) t[table] = v;
    else if (how === 1) t[table] = [...rows, v];
    else if (how === 2 && rows.length) rows.splice(ri % rows.length, 1);
    else if (how === 3 && rows.length) rows.push(structuredClone(rows[ri % rows.length]));
    else if (how === 4 && rows.length) rows.push({ ...structuredClone(rows[ri % rows.length]), id: 900_000 + ri });
    else t[table] = [];
  },
}));

/** Text for a JSON column: broken JSON, any JSON, or near-valid lists of questions, tool servers and events. */
const jsonText = fc.oneof(
  fc.constantFrom('{not json', '', 'null', '[null]', '[1,2]', '{}', '[{}]', '"[]"', '[[]]'),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc
    .array(
      fc.record(
        { type: fc.constantFrom('select', 'string', 'number', 'boolean', 'array', 'robot'), name: fc.constantFrom('topic', 'topic', 'model', '1bad', ''), description: fc.constantFrom('', 'x'), required: fc.boolean(), options: fc.constantFrom(undefined, [], ['a']) },
        { requiredKeys: ['type', 'name'] },
      ),
      { maxLength: 4 },
    )
    .map((qs) => JSON.stringify(qs)),
  fc.array(fc.record({ server_id: fc.oneof(fc.integer({ min: -2, max: 6 }), fc.constant('1')), tools: fc.constantFrom(null, [], ['x'], 'all') }), { maxLength: 4 }).map((l) => JSON.stringify(l)),
  fc.array(fc.constantFrom('execution.succeeded', 'execution.failed', 'execution.started', ''), { maxLength: 4 }).map((l) => JSON.stringify(l)),
);

/** 5. A JSON column (agents' questions and tool_servers, files' metadata, webhooks' events) given other JSON. */
export const jsonColumn: fc.Arbitrary<Mutation> = fc.tuple(fc.constantFrom(['agents', 'questions'], ['agents', 'tool_servers'], ['files', 'metadata'], ['webhooks', 'events']), fc.nat(), jsonText).map(([[table, col], ri, text]) => ({
  describe: `${table}.${col} = ${text.slice(0, 60)}`,
  apply(t) {
    const row = pick(rowsOf(t, table), ri);
    if (row) row[col] = text;
  },
}));
