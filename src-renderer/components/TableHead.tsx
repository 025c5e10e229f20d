/**
 * A table's column headings. A column given as `{ hidden: 'Actions' }` is named for screen readers
 * only (a checkbox or buttons column needs no visible heading, but must still say what it holds).
 */
export type Column = string | { hidden: string };

export function TableHead({ columns }: { columns: Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) =>
          typeof c === 'string' ? (
            <th key={c} scope="col">
              {c}
            </th>
          ) : (
            <th key={c.hidden} scope="col">
              <span className="sr-only">{c.hidden}</span>
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
