import { useState } from 'react';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { CollectionsPanel } from './CollectionsPanel';
import { MemoryEditor } from './MemoryEditor';
import { MemoryItem } from './MemoryItem';
import { collectionChoices, loadAllCollections, type CollectionFilter } from './collections';
import { Screen } from '../../components/Screen';

const PER_PAGE = 10;

export default function MemoriesScreen() {
  const [filter, setFilter] = useState<CollectionFilter>({ kind: 'all' });
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const collections = useLoad(loadAllCollections, []);
  const cols = collections.data ?? [];
  // Default before the platform made it (on first use) holds nothing yet; once made, it is a collection like the others.
  const defaultId = collectionChoices(cols)[0].id;
  const collectionId = filter.kind === 'one' ? filter.id : filter.kind === 'default' ? defaultId : null;
  const empty = filter.kind === 'default' && defaultId === null;
  const memories = useLoad(
    () => (empty ? Promise.resolve({ message: '', memories: [], meta: { current_page: 1, last_page: 1, total: 0 } }) : api.memories.list({ page, per_page: PER_PAGE, collection_id: collectionId ?? undefined, q: q.trim() || undefined })),
    [page, collectionId, empty, q],
  );
  const meta = memories.data?.meta;
  const reloadAll = async () => {
    await Promise.all([memories.reload(), collections.reload()]);
  };

  return (
    <Screen id="memories" title="Memories">
      <div className="split">
        <CollectionsPanel
          collections={cols}
          error={collections.error}
          selected={filter}
          onSelect={(f) => {
            setFilter(f);
            setPage(1);
          }}
          onChanged={reloadAll}
        />
        <div className="stack">
          <MemoryEditor collections={cols} defaultCollection={collectionId} onSaved={() => void (page === 1 ? reloadAll() : (setPage(1), collections.reload()))} />
          <div className="row">
            <label className="sr-only" htmlFor="memory-search">
              Search memories
            </label>
            <input
              id="memory-search"
              type="search"
              className="grow"
              placeholder="Search memories (press /)"
              value={q}
              onChange={(e) => {
                setQ(e.target.value);
                setPage(1);
              }}
            />
            {meta ? <span className="muted small">{meta.total} total</span> : null}
          </div>
          <ErrorNote error={memories.error} what="Memories" />
          {memories.data && !memories.data.memories.length ? <p className="muted">{q ? 'No memory matches this search.' : 'No memories here yet.'}</p> : null}
          <ul className="list-plain stack" data-testid="memory-list">
            {memories.data?.memories.map((m) => (
              <MemoryItem key={m.id} memory={m} collections={cols} onChanged={reloadAll} />
            ))}
          </ul>
          {meta && meta.last_page > 1 ? (
            <nav className="pager" aria-label="Memory pages">
              <button type="button" className="btn btn-small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </button>
              <span className="muted small">
                Page {meta.current_page} of {meta.last_page}
              </span>
              <button type="button" className="btn btn-small" disabled={page >= meta.last_page} onClick={() => setPage(page + 1)}>
                Next
              </button>
            </nav>
          ) : null}
        </div>
      </div>
    </Screen>
  );
}
