import { collectionLabel, isDefaultCollection, type ListedCollection } from './collections';

interface Props {
  collections: ListedCollection[];
  value: number | null;
  onChange(id: number | null): void;
  label: string;
  /** Offer "default" (no collection_id: the platform files it in the user's default collection). */
  allowDefault?: boolean;
}

export function CollectionSelect({ collections, value, onChange, label, allowDefault }: Props) {
  return (
    <label className="field inline">
      <span>{label}</span>
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}>
        {allowDefault ? <option value="">Default</option> : null}
        {/* The default collection is the "Default" choice above when offered: listed once. */}
        {collections.filter((c) => !(allowDefault && isDefaultCollection(c))).map((c) => (
          <option key={c.id} value={c.id}>
            {collectionLabel(c)}
          </option>
        ))}
      </select>
    </label>
  );
}
