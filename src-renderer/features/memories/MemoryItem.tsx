import { useState } from 'react';
import type { Memory } from '../../../src-main/platform/contract/memories';
import { MEMORY_MAX } from '../../../src-main/platform/contract/memories';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { toast } from '../../stores/toasts';
import { CharCounter } from './CharCounter';
import { CollectionSelect } from './CollectionSelect';
import { collectionLabel, type ListedCollection } from './collections';

export function MemoryItem({ memory, collections, onChanged }: { memory: Memory; collections: ListedCollection[]; onChanged(): Promise<void> }) {
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const collection = collections.find((c) => c.id === memory.collection_id);

  const act = async (fn: () => Promise<unknown>, done: string) => {
    try {
      await fn();
      setError(null);
      setEditing(null);
      toast(done);
      await onChanged();
    } catch (err) {
      setError(err);
    }
  };
  const save = () => editing !== null && editing.trim() && editing.length <= MEMORY_MAX && void act(() => api.memories.update(memory.id, editing, memory.collection_id), 'Memory updated.');

  return (
    <li className="card" data-testid="memory" data-memory-id={memory.id}>
      {editing !== null ? (
        <div className="stack">
          <label className="sr-only" htmlFor={`m-${memory.id}`}>
            Edit memory
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
              Cancel
            </button>
            <button type="button" className="btn btn-small btn-primary" disabled={!editing.trim() || editing.length > MEMORY_MAX} onClick={save}>
              Save
            </button>
          </div>
        </div>
      ) : (
        <>
          <p className="memory-text">{memory.memory}</p>
          <div className="row">
            <span className="badge">{collection ? collectionLabel(collection) : `Collection ${memory.collection_id}`}</span>
            <span className="muted small">{memory.memory.length.toLocaleString()} characters</span>
            <span className="grow" />
            <CollectionSelect
              collections={collections}
              value={memory.collection_id}
              label="Move to"
              onChange={(id) => id !== null && id !== memory.collection_id && void act(() => api.memories.update(memory.id, memory.memory, id), 'Memory moved.')}
            />
            <button type="button" className="btn btn-small" onClick={() => setEditing(memory.memory)}>
              Edit
            </button>
            <button type="button" className="btn btn-small" onClick={() => confirm('Delete this memory?') && void act(() => api.memories.delete(memory.id), 'Memory deleted.')}>
              Delete
            </button>
          </div>
        </>
      )}
      <ErrorNote error={error} />
    </li>
  );
}
