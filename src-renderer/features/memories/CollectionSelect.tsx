import { collectionChoices, type ListedCollection } from './collections';

interface Props {
  collections: ListedCollection[];
  /** A collection id, or null for the default collection. */
  value: number | null;
  onChange(id: number | null): void;
  label: string;
}

/** Picks a collection, Default first (offered even before the platform made it: null then). */
export function CollectionSelect({ collections, value, onChange, label }: Props) {
  const choices = collectionChoices(collections);
  const def = choices[0];
  // The default's real id and null both mean Default.
  const current = value === null || value === def.id ? 'default' : String(value);
  return (
    <label className="field inline">
      <span>{label}</span>
      <select value={current} onChange={(e) => onChange(e.target.value === 'default' ? def.id : Number(e.target.value))}>
        {choices.map((c) => (
          <option key={c.isDefault ? 'default' : c.id} value={c.isDefault ? 'default' : String(c.id)}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
}
