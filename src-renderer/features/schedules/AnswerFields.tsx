import type { Question } from '../../../src-main/platform/contract/agents';
import { shownQuestions, type Answers } from '../chat/answers';
import { QuestionInput } from '../chat/QuestionInput';

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
        const control = <QuestionInput q={q} id={id} value={value} onChange={(v) => set(q.name, v)} />;
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
