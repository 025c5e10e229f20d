import { useState } from 'react';
import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { CollectionsPanel } from './CollectionsPanel';
import { MemoryEditor } from './MemoryEditor';
import { MemoryItem } from './MemoryItem';
import { collectionChoices, loadAllCollections, type CollectionFilter } from './collections';
import { Screen } from '../../components/Screen';
import { useT } from '../../i18n';

const PER_PAGE = 10;

export default function MemoriesScreen() {
  const t = useT();
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
    () => (empty ? Promise.resolve({ message: '', memories: [], meta: { current_page: 1, last_page: 1, total: 0 } }) : api.call(ops.listMemories, { query: { page, per_page: PER_PAGE, collection_id: collectionId ?? undefined, q: q.trim() || undefined } })),
    [page, collectionId, empty, q],
  );
  const meta = memories.data?.meta;
  const reloadAll = async () => {
    await Promise.all([memories.reload(), collections.reload()]);
  };

  return (
    <Screen id="memories" title={t('app.screens.memories')}>
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
              {t('memories.search')}
            </label>
            <input
              id="memory-search"
              type="search"
              className="grow"
              placeholder={t('memories.searchPlaceholder')}
              value={q}
              onChange={(e) => {
                setQ(e.target.value);
                setPage(1);
              }}
            />
            {meta ? <span className="muted small">{t('memories.total', { count: meta.total })}</span> : null}
          </div>
          <ErrorNote error={memories.error} what={t('app.screens.memories')} />
          {memories.data && !memories.data.memories.length ? <p className="muted">{q ? t('memories.noMatch') : t('memories.none')}</p> : null}
          <ul className="list-plain stack" data-testid="memory-list">
            {memories.data?.memories.map((m) => (
              <MemoryItem key={m.id} memory={m} collections={cols} onChanged={reloadAll} />
            ))}
          </ul>
          {meta && meta.last_page > 1 ? (
            <nav className="pager" aria-label={t('memories.pages')}>
              <button type="button" className="btn btn-small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t('memories.previous')}
              </button>
              <span className="muted small">
                {t('memories.page', { page: meta.current_page, last: meta.last_page })}
              </span>
              <button type="button" className="btn btn-small" disabled={page >= meta.last_page} onClick={() => setPage(page + 1)}>
                {t('memories.next')}
              </button>
            </nav>
          ) : null}
        </div>
      </div>
    </Screen>
  );
}
