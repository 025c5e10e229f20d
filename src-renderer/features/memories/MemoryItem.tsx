import { useState } from 'react';
import type { Memory } from '../../../src-main/platform/contract/memories';
import { MEMORY_MAX } from '../../../src-main/platform/contract/memories';
import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { CharCounter } from './CharCounter';
import { CollectionSelect } from './CollectionSelect';
import { runChange } from './run-change';
import { collectionChoices, type ListedCollection } from './collections';
import { LongText } from './LongText';
import { useConfirm } from '../../stores/confirm';
import { formatNumber } from '../../components/format';
import { t, useT } from '../../i18n';

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n).trimEnd()}…` : s);

export function MemoryItem({ memory, collections, onChanged }: { memory: Memory; collections: ListedCollection[]; onChanged(): Promise<void> }) {
  const tr = useT();
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const collection = collectionChoices(collections).find((c) => c.id === memory.collection_id);
  const confirm = useConfirm();

  const act = (fn: () => Promise<unknown>, done: string) =>
    runChange(fn, done, {
      setError,
      changed: async () => {
        setEditing(null);
        await onChanged();
      },
    });
  const save = () => editing !== null && editing.trim() && editing.length <= MEMORY_MAX && void act(() => api.call(ops.updateMemory, { params: { memoryId: memory.id }, body: { memory: editing, collection_id: memory.collection_id } }), t('memories.updated'));

  return (
    <li className="card" data-testid="memory" data-memory-id={memory.id}>
      {editing !== null ? (
        <div className="stack">
          <label className="sr-only" htmlFor={`m-${memory.id}`}>
            {tr('memories.editLabel')}
          </label>
          <textarea
            id={`m-${memory.id}`}
            rows={4}
            value={editing}
            autoFocus
            onChange={(e) => setEditing(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setEditing(null);
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                save();
              }
            }}
          />
          <div className="row end">
            <CharCounter length={editing.length} />
            <button type="button" className="btn btn-small" onClick={() => setEditing(null)}>
              {tr('common.cancel')}
            </button>
            <button type="button" className="btn btn-small btn-primary" disabled={!editing.trim() || editing.length > MEMORY_MAX} onClick={save}>
              {tr('common.save')}
            </button>
          </div>
        </div>
      ) : (
        <>
          <LongText className="memory-text" text={memory.memory} />
          <div className="row">
            <span className="badge">{collection ? collection.label : tr('memories.collectionGone')}</span>
            <span className="muted small">{tr('memories.characters', { count: memory.memory.length, n: formatNumber(memory.memory.length) })}</span>
            <span className="grow" />
            <CollectionSelect
              collections={collections}
              value={memory.collection_id}
              label={tr('memories.moveTo')}
              onChange={(id) => id !== memory.collection_id && void act(() => api.call(ops.updateMemory, { params: { memoryId: memory.id }, body: { memory: memory.memory, collection_id: id } }), t('memories.moved', { to: collectionChoices(collections).find((c) => c.id === id)?.label ?? t('memories.default') }))}
            />
            <button type="button" className="btn btn-small" onClick={() => setEditing(memory.memory)}>
              {tr('common.edit')}
            </button>
            <button
              type="button"
              className="btn btn-small"
              onClick={() => void confirm({ title: t('memories.deleteTitle'), body: t('memories.deleteBody', { text: clip(memory.memory.replace(/\s+/g, ' '), 120) }), confirmLabel: t('memories.deleteConfirm'), danger: true }).then((ok) => (ok ? act(() => api.call(ops.deleteMemory, { params: { memoryId: memory.id } }), t('memories.deleted')) : undefined))}
            >
              {tr('common.delete')}
            </button>
          </div>
        </>
      )}
      <ErrorNote error={error} />
    </li>
  );
}
