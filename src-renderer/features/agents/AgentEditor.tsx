import { useState } from 'react';
import type { Agent, Question } from '../../../src-main/platform/contract/agents';
import { api, ops } from '../../api';
import { wordErrors } from '../../api/field-errors';
import { FieldError, FormError, describedBy } from '../../components/FieldError';
import { ModelSelect } from '../../components/ModelSelect';
import { useAgents } from '../../stores/agents';
import { toast } from '../../stores/toasts';
import { askConfirm } from '../../stores/confirm';
import { QuestionRow } from './QuestionRow';
import { AgentToolsField, type ApprovalChange } from './AgentToolsField';
import { AgentFilesField, type FilesDraft } from './AgentFilesField';
import { PROTOCOL_QUESTIONS, isOwnQuestion, settingOf, startingChoice, temperatureWords, typeWords, withDefault, type SettingName } from './agent-questions';
import { formatList } from '../../components/format';
import { useT } from '../../i18n';
import './agents.css';

/**
 * Edits what a person sets on an agent: its name, description, instructions, model, temperature,
 * tools and files, and the questions it asks (a text agent's inputs). The chat's own questions
 * (the history and the session) are neither shown nor changed: `questions` goes back in its
 * order with them exactly as they came.
 */
export function AgentEditor({ agent, onClose }: { agent: Agent; onClose(): void }) {
  const t = useT();
  const [title, setTitle] = useState(agent.title);
  const [description, setDescription] = useState(agent.description ?? '');
  const [instructions, setInstructions] = useState(agent.instructions);
  const [questions, setQuestions] = useState<Question[]>(agent.questions);
  const [toolServers, setToolServers] = useState(agent.tool_servers ?? []);
  const [approvals, setApprovals] = useState<Record<number, ApprovalChange>>({});
  const [files, setFiles] = useState<FilesDraft | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const { upsert, remove } = useAgents();

  const indexOf = (name: SettingName) => questions.findIndex((q) => settingOf(q) === name);
  const setting = (name: SettingName) => questions[indexOf(name)] ?? null;
  const replace = (i: number, next: Question) => setQuestions(questions.map((x, j) => (j === i ? next : x)));
  const model = setting('model');
  const temperature = setting('temperature');
  const web = setting('tools');

  // A refusal in sentences under the fields (`questions.2.options` under that question's row, or under its setting).
  const worded = wordErrors(error, {
    fields: {
      title: t('agents.editor.fieldName'),
      description: t('agents.editor.fieldDescription'),
      instructions: t('agents.editor.fieldInstructions'),
      model: t('agents.editor.fieldModel'),
      temperature: t('agents.editor.fieldTemperature'),
      tools: t('agents.editor.fieldTools'),
      ...Object.fromEntries(questions.map((q, i) => [`question:${i}`, t('agents.editor.fieldQuestion', { name: q.name })])),
    },
    field: (key) => {
      const m = /^questions\.(\d+)/.exec(key);
      if (!m) return key === 'tool_servers' ? 'tools' : key;
      const q = questions[Number(m[1])];
      if (!q || PROTOCOL_QUESTIONS.has(q.name)) return null;
      return settingOf(q) ?? `question:${m[1]}`;
    },
  });

  const save = async () => {
    setSaving(true);
    try {
      const saved = await api.call(ops.updateAgent, { params: { id: agent.id }, body: { title, description: description || null, instructions, questions, tool_servers: toolServers } });
      upsert(saved);
      for (const [id, change] of Object.entries(approvals)) await api.call(ops.updateMcpServer, { params: { id }, body: change });
      if (files) {
        if (files.add.length) await api.call(ops.linkAgentFiles, { params: { agentId: agent.id }, body: { file_ids: files.add } });
        for (const id of files.remove) await api.call(ops.unlinkAgentFile, { params: { agentId: agent.id, fileId: id } });
      }
      setError(null);
      toast(t('agents.editor.saved'));
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  };

  const del = async () => {
    if (!(await askConfirm({ title: t('agents.editor.deleteTitle', { title: agent.title }), body: t('agents.editor.deleteBody'), confirmLabel: t('agents.editor.delete'), danger: true }))) return;
    try {
      await api.call(ops.deleteAgent, { params: { id: agent.id } });
      remove(agent.id);
      toast(t('agents.editor.deleted'));
      onClose();
    } catch (err) {
      setError(err);
    }
  };

  const own = questions.map((q, i) => ({ q, i })).filter(({ q }) => isOwnQuestion(q));
  const named = [model && t('agents.editor.settingModel'), temperature && t('agents.editor.settingTemperature'), web && t('agents.editor.settingWeb')].filter((x): x is string => !!x);
  const settingsNamed = named.length ? formatList(named) : '';

  return (
    <form
      className="card stack agent-editor"
      aria-label={t('agents.editor.label', { title: agent.title })}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div className="row">
        <h2 style={{ margin: 0 }} className="grow">
          {agent.title}
        </h2>
        <span className="badge">{t('agents.typeAgent', { type: typeWords(agent.type) })}</span>
      </div>
      <label className="field">
        <span>{t('agents.editor.name')}</span>
        <input value={title} onChange={(e) => setTitle(e.target.value)} required {...describedBy(worded, 'title', 'agent-title-error')} />
        <FieldError id="agent-title-error" text={worded.fields.title} />
      </label>
      <label className="field">
        <span>{t('agents.editor.description')}</span>
        <input value={description} onChange={(e) => setDescription(e.target.value)} {...describedBy(worded, 'description', 'agent-description-error')} />
        <FieldError id="agent-description-error" text={worded.fields.description} />
      </label>
      <label className="field">
        <span>{t('agents.editor.instructions')}</span>
        <textarea rows={6} value={instructions} onChange={(e) => setInstructions(e.target.value)} placeholder={t('agents.editor.instructionsPlaceholder')} {...describedBy(worded, 'instructions', 'agent-instructions-error')} />
        <FieldError id="agent-instructions-error" text={worded.fields.instructions} />
      </label>
      {model || temperature ? (
        <div className="agent-settings">
          {model ? (
            <div className="field">
              <label htmlFor="agent-model">{t('agents.editor.model')}</label>
              <ModelSelect
                id="agent-model"
                value={model.default ?? ''}
                preferred={null}
                noneLabel={t('agents.editor.defaultModel')}
                testId="agent-model-picker"
                ariaDescribedBy={worded.fields.model ? 'agent-model-error' : 'agent-model-help'}
                onChange={(m) => replace(indexOf('model'), withDefault(model, m || null))}
              />
              <p id="agent-model-help" className="muted small field-help">
                {t('agents.editor.modelHelp')}
              </p>
              <FieldError id="agent-model-error" text={worded.fields.model} />
            </div>
          ) : null}
          {temperature ? (
            <div className="field">
              <label htmlFor="agent-temperature">{t('agents.editor.temperature')}</label>
              <select
                id="agent-temperature"
                value={startingChoice(temperature) ?? ''}
                onChange={(e) => replace(indexOf('temperature'), withDefault(temperature, e.target.value))}
                aria-describedby={worded.fields.temperature ? 'agent-temperature-error' : undefined}
              >
                {(temperature.options ?? []).map((o) => (
                  <option key={o} value={o}>
                    {temperatureWords(o, temperature.options ?? [])}
                  </option>
                ))}
              </select>
              <p className="muted small field-help">{t('agents.editor.temperatureHelp')}</p>
              <FieldError id="agent-temperature-error" text={worded.fields.temperature} />
            </div>
          ) : null}
        </div>
      ) : null}
      <AgentToolsField
        web={web}
        onWeb={(q) => replace(indexOf('tools'), q)}
        servers={toolServers}
        onServers={setToolServers}
        approvals={approvals}
        onApproval={(id, change) => setApprovals({ ...approvals, [id]: change })}
      />
      <FieldError id="agent-tools-error" text={worded.fields.tools} />
      <AgentFilesField agentId={agent.id} draft={files} onDraft={setFiles} />
      <fieldset className="agent-section" data-testid="agent-questions">
          <legend>{t('agents.editor.questions')}</legend>
          <p className="muted small agent-section-help">
            {settingsNamed ? t('agents.editor.questionsHelpBesides', { settings: settingsNamed }) : t('agents.editor.questionsHelp')}
            {own.length ? '' : ` ${t('agents.editor.noQuestions')}`}
          </p>
          {own.map(({ q, i }) => (
            <QuestionRow
              key={i}
              q={q}
              onChange={(next) => replace(i, next)}
              onRemove={() => setQuestions(questions.filter((_, j) => j !== i))}
              error={worded.fields[`question:${i}`]}
            />
          ))}
          <div>
            <button type="button" className="btn btn-small" onClick={() => setQuestions([...questions, { name: freeName(questions), type: 'string', description: '', required: false }])}>
              {t('agents.editor.addQuestion')}
            </button>
          </div>
        </fieldset>
      <FormError worded={worded} error={error} />
      <div className="row">
        <button type="button" className="btn btn-danger" onClick={() => void del()}>
          {t('agents.editor.delete')}
        </button>
        <span className="grow" />
        <button type="button" className="btn" onClick={onClose}>
          {t('agents.editor.cancel')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={saving || !title.trim()}>
          {saving ? t('agents.editor.saving') : t('agents.editor.save')}
        </button>
      </div>
    </form>
  );
}

/** `question_3`, or the next number not taken. */
function freeName(questions: Question[]): string {
  const taken = new Set(questions.map((q) => q.name));
  let n = questions.length + 1;
  while (taken.has(`question_${n}`)) n++;
  return `question_${n}`;
}
