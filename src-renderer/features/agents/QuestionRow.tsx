import { useId } from 'react';
import type { Question } from '../../../src-main/platform/contract/agents';
import { ModelSelect } from '../../components/ModelSelect';
import { FieldError } from '../../components/FieldError';

const TYPES: Question['type'][] = ['string', 'select', 'number', 'boolean', 'array'];

/**
 * One question of an agent. The `model` question is not a list to type: its choice is a model the
 * providers serve, and the agent's own default is picked from them (left empty: the app's default).
 */
export function QuestionRow({ q, onChange, onRemove, error }: { q: Question; onChange(q: Question): void; onRemove(): void; error?: string }) {
  const uid = useId();
  const isModel = q.name === 'model' && q.type === 'select';
  return (
    <div className="stack question-row">
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
        {isModel ? (
          <div className="field grow">
            <label htmlFor={`${uid}-model`}>Default model</label>
            <ModelSelect
              id={`${uid}-model`}
              value={q.default ?? ''}
              preferred={null}
              noneLabel="The app's default model"
              testId="agent-model-picker"
              onChange={(m) => {
                const rest: Question = { ...q };
              delete rest.default;
                // The platform runs an omitted model on the question's default only when it is one of its options.
                onChange(m ? { ...rest, default: m, options: (q.options ?? []).includes(m) ? q.options : [...(q.options ?? []), m] } : rest);
              }}
            />
          </div>
        ) : q.type === 'select' ? (
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
      <FieldError id={`${uid}-error`} text={error} />
    </div>
  );
}
