import { useState } from 'react';
import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useConfirm } from '../../stores/confirm';
import { runChange } from './run-change';
import { collectionChoices, type CollectionChoice, type CollectionFilter, type ListedCollection } from './collections';
import { t, useT } from '../../i18n';

interface Props {
  collections: ListedCollection[];
  error: unknown;
  selected: CollectionFilter;
  onSelect(filter: CollectionFilter): void;
  onChanged(): Promise<void>;
}

const filterOf = (c: CollectionChoice): CollectionFilter => (c.id === null ? { kind: 'default' } : { kind: 'one', id: c.id });
const isSelected = (f: CollectionFilter, c: CollectionChoice) => (f.kind === 'default' && c.isDefault) || (f.kind === 'one' && f.id === c.id);

export function CollectionsPanel({ collections, error, selected, onSelect, onChanged }: Props) {
  const tr = useT();
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const confirm = useConfirm();

  const act = (fn: () => Promise<unknown>, done: string) => runChange(fn, done, { setError: setFailure, changed: onChanged });

  const remove = async (c: ListedCollection, label: string) => {
    // Names what goes and where its memories end up: "Delete “Work”? Its 12 memories move to Default."
    let count: number | null = null;
    try {
      count = (await api.call(ops.listMemories, { query: { collection_id: c.id, per_page: 1 } })).meta.total;
    } catch {
      count = null;
    }
    const moved = count === null ? t('memories.collections.moveUnknown') : t('memories.collections.move', { count });
    // Memories kept out of chats become part of them once in Default: say so before they move.
    const body = !c.in_context && count !== 0 ? `${moved} ${t('memories.collections.intoChats', { count: count ?? 0 })}` : moved;
    if (!(await confirm({ title: t('memories.collections.deleteTitle', { name: label }), body, confirmLabel: t('memories.collections.deleteConfirm'), danger: true }))) return;
    if (await act(() => api.call(ops.deleteCollection, { params: { collectionId: c.id } }), t('memories.collections.deleted', { name: label }))) {
      if (selected.kind === 'one' && selected.id === c.id) onSelect({ kind: 'all' });
    }
  };

  const setInChats = (c: ListedCollection, label: string, on: boolean) =>
    act(
      () => api.call(ops.renameCollection, { params: { collectionId: c.id }, body: { name: c.name, in_context: on } }),
      t(on ? 'memories.collections.inChatsOn' : 'memories.collections.inChatsOff', { name: label }),
    );

  return (
    <aside aria-label={tr('memories.collections.title')} className="card">
      <h2 className="section-title" style={{ marginTop: 0 }}>
        {tr('memories.collections.title')}
      </h2>
      <ErrorNote error={error} what={tr('memories.collections.title')} />
      <ul className="list-plain" data-testid="collections">
        <li className={selected.kind === 'all' ? 'list-item active' : 'list-item'}>
          <button type="button" className="pick" onClick={() => onSelect({ kind: 'all' })} aria-current={selected.kind === 'all' ? 'true' : undefined}>
            {tr('memories.collections.all')}
          </button>
        </li>
        {collectionChoices(collections).map((c) =>
          c.listed && renaming?.id === c.id ? (
            <li key={c.id} className="list-item">
              <form
                className="row grow"
                onSubmit={(e) => {
                  e.preventDefault();
                  void act(() => api.call(ops.renameCollection, { params: { collectionId: renaming.id }, body: { name: renaming.name } }), t('memories.collections.renamed')).then((ok) => ok && setRenaming(null));
                }}
              >
                <input aria-label={tr('memories.collections.newNameFor', { name: c.label })} className="grow" value={renaming.name} autoFocus onChange={(e) => setRenaming({ id: renaming.id, name: e.target.value })} onKeyDown={(e) => e.key === 'Escape' && setRenaming(null)} />
                <button type="submit" className="btn btn-small">
                  {tr('common.save')}
                </button>
              </form>
            </li>
          ) : (
            <li key={c.id ?? 'default'} className={isSelected(selected, c) ? 'list-item active' : 'list-item'} style={{ flexWrap: 'wrap' }} data-testid={c.isDefault ? 'default-collection' : undefined}>
              <button type="button" className="pick" onClick={() => onSelect(filterOf(c))} aria-current={isSelected(selected, c) ? 'true' : undefined}>
                {c.label}
              </button>
              {c.isDefault ? (
                // The platform refuses to rename or delete it: offer neither.
                <span className="muted small" title={tr('memories.collections.defaultTitle')}>
                  {tr('settings.providerCard.default')}
                </span>
              ) : c.listed ? (
                <>
                  <button type="button" className="btn-icon" title={tr('memories.collections.rename')} aria-label={tr('memories.collections.renameName', { name: c.label })} onClick={() => setRenaming({ id: c.listed!.id, name: c.listed!.name })}>
                    ✎
                  </button>
                  <button type="button" className="btn-icon" title={tr('common.delete')} aria-label={tr('memories.collections.deleteName', { name: c.label })} onClick={() => void remove(c.listed!, c.label)}>
                    ×
                  </button>
                  {/* On a line of its own under the name, so a long name keeps the panel's width. */}
                  <label className="small muted row" style={{ flexBasis: '100%', gap: 6, padding: '0 8px 6px' }} title={tr('memories.collections.inChatsTitle')}>
                    <input type="checkbox" checked={c.listed.in_context} aria-label={tr('memories.collections.inChatsFor', { name: c.label })} onChange={(e) => void setInChats(c.listed!, c.label, e.target.checked)} />
                    <span aria-hidden="true">{tr('memories.collections.inChats')}</span>
                  </label>
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
          void act(() => api.call(ops.createCollection, { body: { name: name.trim() } }), t('memories.collections.created')).then((ok) => ok && setName(''));
        }}
      >
        <label className="sr-only" htmlFor="new-collection">
          {tr('memories.collections.newName')}
        </label>
        <input id="new-collection" className="grow" placeholder={tr('memories.collections.newPlaceholder')} value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="btn btn-small" disabled={!name.trim()}>
          {tr('settings.ocr.addButton')}
        </button>
      </form>
    </aside>
  );
}
