import { useState } from 'react';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { toast } from '../../stores/toasts';
import { collectionLabel, isDefaultCollection, type ListedCollection } from './collections';
import { ConfirmDialog } from '../../components/ConfirmDialog';

interface Props {
  collections: ListedCollection[];
  error: unknown;
  selected: number | null;
  onSelect(id: number | null): void;
  onChanged(): Promise<void>;
}

export function CollectionsPanel({ collections, error, selected, onSelect, onChanged }: Props) {
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [doomed, setDoomed] = useState<ListedCollection | null>(null);

  const act = async (fn: () => Promise<unknown>, done: string) => {
    try {
      await fn();
      setFailure(null);
      toast(done);
      await onChanged();
    } catch (err) {
      setFailure(err);
    }
  };

  return (
    <aside aria-label="Collections" className="card">
      <h2 className="section-title" style={{ marginTop: 0 }}>
        Collections
      </h2>
      <ErrorNote error={error} what="Collections" />
      <ul className="list-plain" data-testid="collections">
        <li className={selected === null ? 'list-item active' : 'list-item'}>
          <button type="button" className="pick" onClick={() => onSelect(null)} aria-current={selected === null ? 'true' : undefined}>
            All memories
          </button>
        </li>
        {collections.map((c) =>
          renaming?.id === c.id ? (
            <li key={c.id} className="list-item">
              <form
                className="row grow"
                onSubmit={(e) => {
                  e.preventDefault();
                  void act(() => api.collections.rename(c.id, renaming.name), 'Collection renamed.').then(() => setRenaming(null));
                }}
              >
                <input aria-label={`New name for ${collectionLabel(c)}`} className="grow" value={renaming.name} autoFocus onChange={(e) => setRenaming({ id: c.id, name: e.target.value })} onKeyDown={(e) => e.key === 'Escape' && setRenaming(null)} />
                <button type="submit" className="btn btn-small">
                  Save
                </button>
              </form>
            </li>
          ) : (
            <li key={c.id} className={selected === c.id ? 'list-item active' : 'list-item'}>
              <button type="button" className="pick" onClick={() => onSelect(c.id)} aria-current={selected === c.id ? 'true' : undefined}>
                {collectionLabel(c)}
              </button>
              {isDefaultCollection(c) ? (
                // The platform refuses to rename or delete it: offer neither.
                <span className="muted small" title="New memories go here unless you choose another collection">
                  default
                </span>
              ) : (
                <>
                  <button type="button" className="btn-icon" title="Rename" aria-label={`Rename ${collectionLabel(c)}`} onClick={() => setRenaming({ id: c.id, name: c.name })}>
                    ✎
                  </button>
                  <button type="button" className="btn-icon" title="Delete" aria-label={`Delete ${collectionLabel(c)}`} onClick={() => setDoomed(c)}>
                    ×
                  </button>
                </>
              )}
            </li>
          ),
        )}
      </ul>
      <ErrorNote error={failure} />
      <ConfirmDialog
        open={!!doomed}
        title="Delete this collection?"
        confirmLabel="Delete"
        danger
        onCancel={() => setDoomed(null)}
        onConfirm={() => {
          const c = doomed;
          setDoomed(null);
          if (c) void act(() => api.collections.delete(c.id), 'Collection deleted.').then(() => selected === c.id && onSelect(null));
        }}
      >
        <p>“{doomed ? collectionLabel(doomed) : ''}” is removed; its memories move to the default collection.</p>
      </ConfirmDialog>
      <form
        className="row"
        style={{ marginTop: 10 }}
        onSubmit={(e) => {
          e.preventDefault();
          if (!name.trim()) return;
          void act(() => api.collections.create(name.trim()), 'Collection created.').then(() => setName(''));
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
