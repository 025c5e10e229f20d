import type { Question } from '../../../src-main/platform/contract/agents';
import { shownQuestions, type Answers } from '../chat/answers';

/** One labelled control per question the agent asks, for the answers every run sends. */
export function AnswerFields({ questions, answers, onChange, idPrefix }: { questions: Question[]; answers: Answers; onChange(a: Answers): void; idPrefix: string }) {
  const shown = shownQuestions(questions);
  if (!shown.length) return null;
  const set = (name: string, v: unknown) => onChange({ ...answers, [name]: v });
  return (
    <div className="schedule-answers">
      {shown.map((q) => {
        const id = `${idPrefix}-${q.name}`;
        const value = answers[q.name];
        let control;
        if (q.type === 'select') {
          control = (
            <select id={id} value={String(value ?? '')} onChange={(e) => set(q.name, e.target.value || undefined)}>
              {!q.required ? <option value="">—</option> : null}
              {(q.options ?? []).map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          );
        } else if (q.type === 'number') {
          control = <input id={id} type="number" step="any" value={value === undefined || value === null ? '' : String(value)} onChange={(e) => set(q.name, e.target.value === '' ? undefined : Number(e.target.value))} />;
        } else if (q.type === 'boolean') {
          control = <input id={id} type="checkbox" checked={value === true} onChange={(e) => set(q.name, e.target.checked)} />;
        } else if (q.type === 'array') {
          control = (
            <input
              id={id}
              value={Array.isArray(value) ? value.join(', ') : ''}
              placeholder="Comma-separated"
              onChange={(e) =>
                set(
                  q.name,
                  e.target.value
                    .split(',')
                    .map((x) => x.trim())
                    .filter(Boolean),
                )
              }
            />
          );
        } else {
          control = <textarea id={id} rows={2} value={String(value ?? '')} onChange={(e) => set(q.name, e.target.value)} />;
        }
        return (
          <div key={q.name} className={q.type === 'boolean' ? 'field inline' : 'field'}>
            <label htmlFor={id} title={q.description}>
              {q.name.replace(/_/g, ' ')}
              {q.required ? <span aria-label="required"> *</span> : null}
            </label>
            {control}
          </div>
        );
      })}
    </div>
  );
}
