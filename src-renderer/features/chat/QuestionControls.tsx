import type { Agent, Question } from '../../../src-main/platform/contract/agents';
import { useChat } from '../../stores/chat';
import { QuestionInput } from './QuestionInput';
import { ModelPicker } from './ModelPicker';
import { mainTextQuestion, shownQuestions } from './answers';

/**
 * One control per question the agent asks: select → select, number → input, string → textarea.
 * An agent that is not a chat gets its main text question from the composer, so it is not repeated here.
 */
export function QuestionControls({ agent }: { agent: Agent }) {
  const main = agent.type !== 'chat' ? mainTextQuestion(agent.questions)?.name : undefined;
  const questions = shownQuestions(agent.questions).filter((q) => q.name !== main);
  if (!questions.length) return null;
  return (
    <details className="questions" open>
      <summary>Options</summary>
      <div className="question-grid">
        {questions.map((q) => (
          <QuestionField key={q.name} q={q} />
        ))}
      </div>
    </details>
  );
}

function QuestionField({ q }: { q: Question }) {
  const value = useChat((s) => s.answers[q.name]);
  const setAnswer = useChat((s) => s.setAnswer);
  const id = `q-${q.name}`;
  const label = (
    <label htmlFor={id} title={q.description}>
      {q.name.replace(/_/g, ' ')}
      {q.required ? <span aria-label="required"> *</span> : null}
    </label>
  );
  let control;
  if (q.name === 'model' && q.type === 'select') {
    control = <ModelPicker id={id} value={String(value ?? '')} options={q.options ?? []} required={!!q.required} onChange={(m) => setAnswer(q.name, m)} />;
  } else {
    control = <QuestionInput q={q} id={id} value={value} onChange={(v) => setAnswer(q.name, v)} />;
  }
  return (
    <div className="field">
      {label}
      {control}
      {q.description ? <small className="muted">{q.description}</small> : null}
    </div>
  );
}
