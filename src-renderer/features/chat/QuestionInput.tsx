import type { Question } from '../../../src-main/platform/contract/agents';
import { optionWords } from './option-words';

/**
 * The control for one agent question, by its type: the chat's options and a schedule's answers
 * both use it. A cleared select or number becomes "not answered" (undefined), a list is one item per line.
 * Options read in words (the web tools' "no-tools" is "No web search").
 */
export function QuestionInput({ q, id, value, onChange }: { q: Question; id: string; value: unknown; onChange(v: unknown): void }) {
  if (q.type === 'select') {
    return (
      <select id={id} value={String(value ?? '')} onChange={(e) => onChange(e.target.value || undefined)}>
        {!q.required ? <option value="">—</option> : null}
        {(q.options ?? []).map((o) => (
          <option key={o} value={o}>
            {optionWords(q, o)}
          </option>
        ))}
      </select>
    );
  }
  if (q.type === 'number') {
    return <input id={id} type="number" step="any" value={value === undefined || value === null ? '' : String(value)} onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))} />;
  }
  if (q.type === 'boolean') return <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
  if (q.type === 'array') {
    return <textarea id={id} rows={2} value={Array.isArray(value) ? value.join('\n') : ''} onChange={(e) => onChange(e.target.value.split('\n').filter((l) => l.trim()))} />;
  }
  return <textarea id={id} rows={2} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} />;
}
