import { useState } from 'react';
import type { Agent, Question } from '../../../src-main/platform/contract/agents';
import { api } from '../../api';
import { wordErrors } from '../../api/field-errors';
import { FieldError, FormError, describedBy } from '../../components/FieldError';
import { useAgents } from '../../stores/agents';
import { toast } from '../../stores/toasts';
import { askConfirm } from '../../components/confirm';
import { QuestionRow } from './QuestionRow';
import { AgentToolsField } from './AgentToolsField';

/** Edits an agent's title, description, instructions and questions (ext PATCH), or deletes it. */
export function AgentEditor({ agent, onClose }: { agent: Agent; onClose(): void }) {
  const [title, setTitle] = useState(agent.title);
  const [description, setDescription] = useState(agent.description ?? '');
  const [instructions, setInstructions] = useState(agent.instructions);
  const [questions, setQuestions] = useState<Question[]>(agent.questions);
  const [toolServers, setToolServers] = useState(agent.tool_servers ?? []);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const { upsert, remove } = useAgents();
  // A refusal in sentences under the fields (`questions.2.options` under that question's row).
  const worded = wordErrors(error, {
    fields: { title: 'title', description: 'description', instructions: 'instructions', ...Object.fromEntries(questions.map((q, i) => [`question:${i}`, `question “${q.name}”`])) },
    field: (key) => {
      const q = /^questions\.(\d+)/.exec(key);
      return q ? `question:${q[1]}` : key;
    },
  });

  const save = async () => {
    setSaving(true);
    try {
      const saved = await api.agents.update(agent.id, { title, description: description || null, instructions, questions, tool_servers: toolServers });
      upsert(saved);
      setError(null);
      toast('Agent saved.');
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  };

  const del = async () => {
    if (!(await askConfirm({ title: `Delete the agent “${agent.title}”?`, body: 'Its webhooks, schedules and file links go too; past conversations stay.', confirmLabel: 'Delete agent', danger: true }))) return;
    try {
      await api.agents.delete(agent.id);
      remove(agent.id);
      toast('Agent deleted.');
      onClose();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <form
      className="card stack"
      aria-label={`Edit ${agent.title}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div className="row">
        <h2 style={{ margin: 0 }} className="grow">
          {agent.title}
        </h2>
        <span className="badge">{agent.type}</span>
      </div>
      <label className="field">
        <span>Title</span>
        <input value={title} onChange={(e) => setTitle(e.target.value)} required {...describedBy(worded, 'title', 'agent-title-error')} />
        <FieldError id="agent-title-error" text={worded.fields.title} />
      </label>
      <label className="field">
        <span>Description</span>
        <input value={description} onChange={(e) => setDescription(e.target.value)} {...describedBy(worded, 'description', 'agent-description-error')} />
        <FieldError id="agent-description-error" text={worded.fields.description} />
      </label>
      <label className="field">
        <span>Instructions (system prompt)</span>
        <textarea rows={6} value={instructions} onChange={(e) => setInstructions(e.target.value)} {...describedBy(worded, 'instructions', 'agent-instructions-error')} />
        <FieldError id="agent-instructions-error" text={worded.fields.instructions} />
      </label>
      <fieldset className="stack" style={{ border: '1px solid var(--border)', borderRadius: 8 }}>
        <legend>Questions</legend>
        {questions.map((q, i) => (
          <QuestionRow
            key={i}
            q={q}
            onChange={(next) => setQuestions(questions.map((x, j) => (j === i ? next : x)))}
            onRemove={() => setQuestions(questions.filter((_, j) => j !== i))}
            error={worded.fields[`question:${i}`]}
          />
        ))}
        <div>
          <button type="button" className="btn btn-small" onClick={() => setQuestions([...questions, { name: `question_${questions.length + 1}`, type: 'string', description: '', required: false }])}>
            Add question
          </button>
        </div>
      </fieldset>
      <AgentToolsField value={toolServers} onChange={setToolServers} />
      <FormError worded={worded} error={error} />
      <div className="row">
        <button type="button" className="btn btn-danger" onClick={() => void del()}>
          Delete agent
        </button>
        <span className="grow" />
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={saving || !title.trim()}>
          Save
        </button>
      </div>
    </form>
  );
}
