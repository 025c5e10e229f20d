import type { Question } from '../../../src-main/platform/contract/agents';
import { shownQuestions, type Answers } from '../../stores/answers';
import { questionLabel } from '../chat/option-words';
import { QuestionInput } from '../chat/QuestionInput';
import { ModelSelect } from '../../components/ModelSelect';
import { FieldError } from '../../components/FieldError';
import { useT } from '../../i18n';

/**
 * One labelled control per question the agent asks, for the answers every run sends; the model is
 * the app's one model picker (what the providers serve, starting on the default). `errors`: a
 * sentence under a question's control, by question name.
 */
export function AnswerFields({ questions, answers, onChange, idPrefix, errors = {} }: { questions: Question[]; answers: Answers; onChange(a: Answers): void; idPrefix: string; errors?: Record<string, string> }) {
  const t = useT();
  const shown = shownQuestions(questions);
  if (!shown.length) return null;
  const set = (name: string, v: unknown) => onChange({ ...answers, [name]: v });
  return (
    <div className="schedule-answers">
      {shown.map((q) => {
        const id = `${idPrefix}-${q.name}`;
        const value = answers[q.name];
        const control =
          q.name === 'model' && q.type === 'select' ? (
            <ModelSelect id={id} value={String(value ?? '')} preferred={q.default ?? null} onChange={(m) => set(q.name, m)} ariaDescribedBy={errors[q.name] ? `${id}-error` : undefined} />
          ) : (
            <QuestionInput q={q} id={id} value={value} onChange={(v) => set(q.name, v)} />
          );
        return (
          <div key={q.name} className={q.type === 'boolean' ? 'field inline' : 'field'}>
            <label htmlFor={id} title={q.description}>
              {questionLabel(q)}
              {q.required ? <span aria-label={t('schedules.form.required')}> *</span> : null}
            </label>
            {control}
            <FieldError id={`${id}-error`} text={errors[q.name]} />
          </div>
        );
      })}
    </div>
  );
}
