import { useState } from 'react';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { toast } from '../../stores/toasts';
import { useConfirm } from '../../components/confirm';
import { collectionChoices, type CollectionChoice, type CollectionFilter, type ListedCollection } from './collections';

interface Props {
  collections: ListedCollection[];
  error: unknown;
  selected: CollectionFilter;
  onSelect(filter: CollectionFilter): void;
  onChanged(): Promise<void>;
}

const filterOf = (c: CollectionChoice): CollectionFilter => (c.id === null ? { kind: 'default' } : { kind: 'one', id: c.id });
const isSelected = (f: CollectionFilter, c: CollectionChoice) => (f.kind === 'default' && c.isDefault) || (f.kind === 'one' && f.id === c.id);
const memoriesIn = (n: number) => (n === 1 ? 'Its one memory moves' : n ? `Its ${n.toLocaleString()} memories move` : 'It has no memories; nothing else changes');

export function CollectionsPanel({ collections, error, selected, onSelect, onChanged }: Props) {
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const confirm = useConfirm();

  const act = async (fn: () => Promise<unknown>, done: string) => {
    try {
      await fn();
      setFailure(null);
      toast(done);
      await onChanged();
      return true;
    } catch (err) {
      setFailure(err);
      return false;
    }
  };

  const remove = async (c: ListedCollection, label: string) => {
    // Names what goes and where its memories end up: "Delete “Work”? Its 12 memories move to Default."
    let count: number | null = null;
    try {
      count = (await api.memories.list({ collection_id: c.id, per_page: 1 })).meta.total;
    } catch {
      count = null;
    }
    const body = count === null ? 'Its memories move to Default.' : `${memoriesIn(count)}${count ? ' to Default' : ''}.`;
    if (!(await confirm({ title: `Delete “${label}”?`, body, confirmLabel: 'Delete collection', danger: true }))) return;
    if (await act(() => api.collections.delete(c.id), `Collection “${label}” deleted.`)) {
      if (selected.kind === 'one' && selected.id === c.id) onSelect({ kind: 'all' });
    }
  };

  return (
    <aside aria-label="Collections" className="card">
      <h2 className="section-title" style={{ marginTop: 0 }}>
        Collections
      </h2>
      <ErrorNote error={error} what="Collections" />
      <ul className="list-plain" data-testid="collections">
        <li className={selected.kind === 'all' ? 'list-item active' : 'list-item'}>
          <button type="button" className="pick" onClick={() => onSelect({ kind: 'all' })} aria-current={selected.kind === 'all' ? 'true' : undefined}>
            All memories
          </button>
        </li>
        {collectionChoices(collections).map((c) =>
          c.listed && renaming?.id === c.id ? (
            <li key={c.id} className="list-item">
              <form
                className="row grow"
                onSubmit={(e) => {
                  e.preventDefault();
                  void act(() => api.collections.rename(renaming.id, renaming.name), 'Collection renamed.').then((ok) => ok && setRenaming(null));
                }}
              >
                <input aria-label={`New name for ${c.label}`} className="grow" value={renaming.name} autoFocus onChange={(e) => setRenaming({ id: renaming.id, name: e.target.value })} onKeyDown={(e) => e.key === 'Escape' && setRenaming(null)} />
                <button type="submit" className="btn btn-small">
                  Save
                </button>
              </form>
            </li>
          ) : (
            <li key={c.id ?? 'default'} className={isSelected(selected, c) ? 'list-item active' : 'list-item'} data-testid={c.isDefault ? 'default-collection' : undefined}>
              <button type="button" className="pick" onClick={() => onSelect(filterOf(c))} aria-current={isSelected(selected, c) ? 'true' : undefined}>
                {c.label}
              </button>
              {c.isDefault ? (
                // The platform refuses to rename or delete it: offer neither.
                <span className="muted small" title="New memories go here unless you choose another collection">
                  default
                </span>
              ) : c.listed ? (
                <>
                  <button type="button" className="btn-icon" title="Rename" aria-label={`Rename ${c.label}`} onClick={() => setRenaming({ id: c.listed!.id, name: c.listed!.name })}>
                    ✎
                  </button>
                  <button type="button" className="btn-icon" title="Delete" aria-label={`Delete ${c.label}`} onClick={() => void remove(c.listed!, c.label)}>
                    ×
                  </button>
                </>
              ) : null}
            </li>
          ),
        )}
      </ul>
      <ErrorNote error={failure} />
      <form
        className="row"
        style={{ marginTop: 10 }}
        onSubmit={(e) => {
          e.preventDefault();
          if (!name.trim()) return;
          void act(() => api.collections.create(name.trim()), 'Collection created.').then((ok) => ok && setName(''));
        }}
      >
        <label className="sr-only" htmlFor="new-collection">
          New collection name
        </label>
        <input id="new-collection" className="grow" placeholder="New collection" value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="btn btn-small" disabled={!name.trim()}>
          Add
        </button>
      </form>
    </aside>
  );
}
