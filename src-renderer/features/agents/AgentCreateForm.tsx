import { useEffect, useId, useRef, useState } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { api, ops } from '../../api';
import { wordErrors } from '../../api/field-errors';
import { FieldError, FormError, describedBy } from '../../components/FieldError';
import { useAgents } from '../../stores/agents';
import { toast } from '../../stores/toasts';
import { useT } from '../../i18n';
import './agents.css';

/** What the form starts from: nothing, or a template's name and description (its questions come with it). */
export interface CreateStart {
  template?: { id: string; title: string; description: string };
}

/** The template a new chat agent takes its questions from (model, temperature, web tools, the history). */
const CHAT_BASE = 'chat-assistant';

/**
 * A new agent from an empty form (or a template's, filled in): nothing is saved until "Create
 * agent". Then the full editor opens on it, for its model, tools, files and questions.
 */
export function AgentCreateForm({ start, onCreated, onCancel }: { start: CreateStart; onCreated(a: Agent): void; onCancel(): void }) {
  const t = useT();
  const uid = useId();
  const tpl = start.template;
  const [title, setTitle] = useState(tpl?.title ?? '');
  const [kind, setKind] = useState<'chat' | 'text'>('chat');
  const [description, setDescription] = useState(tpl?.description ?? '');
  const [instructions, setInstructions] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const name = useRef<HTMLInputElement>(null);
  const upsert = useAgents((s) => s.upsert);
  useEffect(() => name.current?.focus(), []);
  const worded = wordErrors(error, { fields: { title: t('agents.create.nameField'), description: t('agents.create.descriptionField'), instructions: t('agents.create.instructionsField') } });

  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      const agent = await api.call(ops.createAgent, {
        body: {
          // A chat starts with the chat questions; a template brings its own; a text agent starts with none.
          template_id: tpl?.id ?? (kind === 'chat' ? CHAT_BASE : undefined),
          ...(tpl ? {} : { type: kind }),
          title: title.trim(),
          description: description.trim() || null,
          // Empty keeps a template's own instructions.
          ...(instructions.trim() || !tpl ? { instructions: instructions.trim() } : {}),
        },
      });
      upsert(agent);
      toast(t('agents.create.created', { title: agent.title }));
      onCreated(agent);
    } catch (err) {
      setError(err);
      name.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="card stack agent-editor"
      aria-labelledby={`${uid}-h`}
      onSubmit={(e) => {
        e.preventDefault();
        if (title.trim()) void create();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onCancel();
        }
      }}
      data-testid="agent-create"
    >
      <h2 id={`${uid}-h`} style={{ margin: 0 }}>
        {tpl ? t('agents.create.fromTemplate', { template: tpl.title }) : t('agents.create.heading')}
      </h2>
      <label className="field">
        <span>{t('agents.create.name')}</span>
        <input ref={name} value={title} onChange={(e) => setTitle(e.target.value)} maxLength={255} placeholder={t('agents.create.namePlaceholder')} required {...describedBy(worded, 'title', `${uid}-title`)} data-testid="agent-create-name" />
        <FieldError id={`${uid}-title`} text={worded.fields.title} />
      </label>
      {tpl ? null : (
        <fieldset className="agent-section">
          <legend>{t('agents.create.kind')}</legend>
          <label className="row">
            <input type="radio" name={`${uid}-kind`} checked={kind === 'chat'} onChange={() => setKind('chat')} />
            {t('agents.create.chat')}
          </label>
          <label className="row">
            <input type="radio" name={`${uid}-kind`} checked={kind === 'text'} onChange={() => setKind('text')} />
            {t('agents.create.text')}
          </label>
        </fieldset>
      )}
      <label className="field">
        <span>{t('agents.create.description')}</span>
        <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} {...describedBy(worded, 'description', `${uid}-description`)} />
        <FieldError id={`${uid}-description`} text={worded.fields.description} />
      </label>
      <label className="field">
        <span>{t('agents.create.instructions')}</span>
        <textarea
          rows={5}
          value={instructions}
          onChange={(e) => setInstructions(e.target.value)}
          placeholder={tpl ? t('agents.create.templateInstructions') : t('agents.create.instructionsPlaceholder')}
          {...describedBy(worded, 'instructions', `${uid}-instructions`)}
        />
        <FieldError id={`${uid}-instructions`} text={worded.fields.instructions} />
      </label>
      <p className="muted small">{t('agents.create.after')}</p>
      <FormError worded={worded} error={error} />
      <div className="row">
        <span className="grow" />
        <button type="button" className="btn" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy || !title.trim()}>
          {busy ? t('agents.create.creating') : t('agents.create.submit')}
        </button>
      </div>
    </form>
  );
}
