import { useRef, useState } from 'react';
import { MEMORY_MAX } from '../../../src-main/platform/contract/memories';
import { api, ops } from '../../api';
import { wordErrors } from '../../api/field-errors';
import { FieldError, FormError, describedBy } from '../../components/FieldError';
import { toast } from '../../stores/toasts';
import { CharCounter } from './CharCounter';
import { CollectionSelect } from './CollectionSelect';
import type { ListedCollection } from './collections';
import { t, useT } from '../../i18n';

export function MemoryEditor({ collections, defaultCollection, onSaved }: { collections: ListedCollection[]; defaultCollection: number | null; onSaved(): void }) {
  const tr = useT();
  const [text, setText] = useState('');
  // undefined: the collection shown in the list (or Default); null: Default, chosen here.
  const [collection, setCollection] = useState<number | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const target = collection === undefined ? defaultCollection : collection;
  const over = text.length > MEMORY_MAX;
  // A refusal in a sentence under the text (field-errors.ts); a collection's under the form.
  const worded = wordErrors(error, { fields: { memory: tr('memories.inSentence') } });

  const save = async () => {
    if (!text.trim() || over) return;
    setSaving(true);
    try {
      await api.call(ops.createMemory, { body: { memory: text, collection_id: target ?? undefined } });
      setText('');
      setError(null);
      toast(t('memories.saved'));
      // Save turns disabled with the box empty: focus goes back to the box for the next one, not to the page.
      box.current?.focus();
      onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="card stack"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label className="field">
        <span>{tr('memories.new')}</span>
        <textarea
          ref={box}
          rows={3}
          value={text}
          placeholder={tr('memories.newPlaceholder')}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void save();
            }
          }}
          {...describedBy(worded, 'memory', 'new-memory-error')}
          data-testid="new-memory"
        />
        <FieldError id="new-memory-error" text={worded.fields.memory} />
      </label>
      <div className="row">
        <CollectionSelect collections={collections} value={target} onChange={setCollection} label={tr('memories.collection')} />
        <span className="grow" />
        <CharCounter length={text.length} />
        <button type="submit" className="btn btn-primary" disabled={saving || !text.trim() || over}>
          {tr('memories.save')}
        </button>
      </div>
      <FormError worded={worded} error={error} />
    </form>
  );
}
