import { useId } from 'react';
import type { Question } from '../../../src-main/platform/contract/agents';
import { FieldError } from '../../components/FieldError';
import { QUESTION_KINDS, kindWords } from './agent-questions';
import { useT } from '../../i18n';

/**
 * One question the agent asks whoever runs it (a text agent's "Text", "Tone"...): its name, kind,
 * description, choices and whether it must be answered. The model, temperature and web tools are
 * settings of the editor, and the chat's own questions are never rows.
 */
export function QuestionRow({ q, onChange, onRemove, error }: { q: Question; onChange(q: Question): void; onRemove(): void; error?: string }) {
  const uid = useId();
  const t = useT();
  return (
    <div className="stack question-row" data-testid="question-row" data-name={q.name}>
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <label className="field">
          <span>{t('agents.question.name')}</span>
          <input value={q.name} onChange={(e) => onChange({ ...q, name: e.target.value })} size={14} aria-describedby={error ? `${uid}-error` : undefined} />
        </label>
        <label className="field">
          <span>{t('agents.question.kind')}</span>
          <select
            value={q.type}
            onChange={(e) => {
              const type = e.target.value as Question['type'];
              const next: Question = { ...q, type };
              if (type === 'select') next.options = q.options ?? [t('agents.question.firstChoice')];
              else {
                delete next.options;
                delete next.default;
              }
              onChange(next);
            }}
          >
            {QUESTION_KINDS.map((k) => (
              <option key={k} value={k}>
                {kindWords(k)}
              </option>
            ))}
          </select>
        </label>
        <label className="field grow">
          <span>{t('agents.question.description')}</span>
          <input value={q.description} onChange={(e) => onChange({ ...q, description: e.target.value })} />
        </label>
        {q.type === 'select' ? (
          <label className="field grow">
            <span>{t('agents.question.choices')}</span>
            <input value={(q.options ?? []).join(', ')} onChange={(e) => onChange({ ...q, options: e.target.value.split(',').map((s) => s.trim()).filter(Boolean) })} />
          </label>
        ) : null}
        <label className="field inline">
          <input type="checkbox" checked={q.required} onChange={(e) => onChange({ ...q, required: e.target.checked })} />
          <span>{t('agents.question.required')}</span>
        </label>
        <button type="button" className="btn-icon" aria-label={t('agents.question.remove', { name: q.name })} onClick={onRemove}>
          ×
        </button>
      </div>
      <FieldError id={`${uid}-error`} text={error} />
    </div>
  );
}
