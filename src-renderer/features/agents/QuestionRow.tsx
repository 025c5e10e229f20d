import type { Question } from '../../../src-main/platform/contract/agents';

const TYPES: Question['type'][] = ['string', 'select', 'number', 'boolean', 'array'];

export function QuestionRow({ q, onChange, onRemove }: { q: Question; onChange(q: Question): void; onRemove(): void }) {
  return (
    <div className="row" style={{ alignItems: 'flex-end' }}>
      <label className="field">
        <span>Name</span>
        <input value={q.name} onChange={(e) => onChange({ ...q, name: e.target.value })} size={14} />
      </label>
      <label className="field">
        <span>Type</span>
        <select
          value={q.type}
          onChange={(e) => {
            const type = e.target.value as Question['type'];
            onChange({ ...q, type, options: type === 'select' ? (q.options ?? ['option 1']) : undefined });
          }}
        >
          {TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label className="field grow">
        <span>Description</span>
        <input value={q.description} onChange={(e) => onChange({ ...q, description: e.target.value })} />
      </label>
      {q.type === 'select' ? (
        <label className="field grow">
          <span>Options (comma separated)</span>
          <input value={(q.options ?? []).join(', ')} onChange={(e) => onChange({ ...q, options: e.target.value.split(',').map((s) => s.trim()).filter(Boolean) })} />
        </label>
      ) : null}
      <label className="field inline">
        <input type="checkbox" checked={q.required} onChange={(e) => onChange({ ...q, required: e.target.checked })} />
        <span>Required</span>
      </label>
      <button type="button" className="btn-icon" aria-label={`Remove question ${q.name}`} onClick={onRemove}>
        ×
      </button>
    </div>
  );
}
