import { useEffect, useId, useMemo, useState } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import type { Schedule } from '../../../src-main/platform/contract/schedules';
import { api, ops } from '../../api';
import { wordErrors } from '../../api/field-errors';
import { FieldError, FormError, describedBy } from '../../components/FieldError';
import { defaultAnswers, missingAnswers, type Answers } from '../../stores/answers';
import { AnswerFields } from './AnswerFields';
import { browserZone, cronProblem, describeTiming, formatAt, previewNextRun, timeZones } from './describe';
import { formatList } from '../../components/format';
import { Trans, useT } from '../../i18n';

type Mode = 'every' | 'cron';

/** The form's field for a platform error key (`answers.model` → `answer:model`, `messages.0.content` → `message`). */
function formField(key: string): string | null {
  if (key.startsWith('answers.')) return `answer:${key.slice('answers.'.length)}`;
  if (key.startsWith('messages')) return 'message';
  return ({ agent_id: 'agent', name: 'name', cron: 'cron', every_minutes: 'every', timezone: 'zone' } as Record<string, string>)[key] ?? null;
}

function firstUserMessage(s: Schedule | null): string {
  const m = s?.messages.find((t) => t.role === 'user');
  if (!m) return '';
  return typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('');
}

/** Creates a schedule, or edits one (`schedule` given): the agent, the timing, and what every run sends. */
export function ScheduleForm({ agents, schedule, onSaved, onCancel }: { agents: Agent[]; schedule: Schedule | null; onSaved(s: Schedule): void; onCancel?(): void }) {
  const uid = useId();
  const t = useT();
  const [agentId, setAgentId] = useState<number | null>(schedule?.agent_id ?? agents[0]?.id ?? null);
  const [name, setName] = useState(schedule?.name ?? '');
  const [mode, setMode] = useState<Mode>(schedule?.cron ? 'cron' : 'every');
  const [every, setEvery] = useState(String(schedule?.every_minutes ?? 60));
  const [cron, setCron] = useState(schedule?.cron ?? '30 9 * * 1-5');
  const [zone, setZone] = useState(schedule?.timezone ?? browserZone());
  const [message, setMessage] = useState(firstUserMessage(schedule));
  const [answers, setAnswers] = useState<Answers>(schedule?.answers ?? {});
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const zones = useMemo(() => {
    const all = timeZones();
    return all.includes(zone) ? all : [zone, ...all];
  }, [zone]);

  useEffect(() => {
    if (agentId === null && agents.length) setAgentId(agents[0].id);
  }, [agentId, agents]);
  const agent = agents.find((a) => a.id === agentId) ?? null;
  // A new schedule starts from the agent's own defaults; an edited one keeps what it sends.
  useEffect(() => {
    if (agent && (!schedule || schedule.agent_id !== agent.id)) setAnswers(defaultAnswers(agent.questions));
  }, [agent?.id]);

  const isChat = agent?.type === 'chat';
  const minutes = Number(every);
  const everyBad = !/^\d+$/.test(every.trim()) || minutes < 1 || minutes > 527_040;
  const cronBad = mode === 'cron' ? cronProblem(cron, zone) : null;
  const timing = mode === 'every' ? { cron: null, every_minutes: everyBad ? null : minutes, timezone: zone } : { cron: cronBad ? null : cron.trim(), every_minutes: null, timezone: zone };
  const next = previewNextRun(timing);
  const missing = agent ? missingAnswers(agent.questions, answers) : [];
  const problem = !agent
    ? t('schedules.form.pickAgent')
    : mode === 'every' && everyBad
      ? t('schedules.form.everyHowMany')
      : cronBad
        ? cronBad
        : isChat && !message.trim()
          ? t('schedules.form.typeMessage')
          : missing.length
            ? missing.includes('model')
              ? t('schedules.form.pickModel')
              : t('schedules.form.answer', { names: formatList(missing.map((m) => m.replace(/_/g, ' '))) })
            : null;
  const answerNames = Object.fromEntries((agent?.questions ?? []).map((q) => [`answer:${q.name}`, q.name.replace(/_/g, ' ')]));
  const worded = wordErrors(error, { field: formField, fields: { ...(t('schedules.form.inSentence', { returnObjects: true }) as Record<string, string>), ...answerNames } });
  const answerErrors = Object.fromEntries(Object.entries(worded.fields).filter(([k]) => k.startsWith('answer:')).map(([k, v]) => [k.slice('answer:'.length), v]));

  const timingProblem = mode === 'every' ? everyBad : !!cronBad;
  const save = async () => {
    if (!agent || problem) return;
    setSaving(true);
    const body = {
      name: name.trim() || null,
      cron: mode === 'cron' ? cron.trim() : null,
      every_minutes: mode === 'every' ? minutes : null,
      timezone: zone,
      answers,
      messages: isChat ? [{ role: 'user', content: message.trim() }] : [],
    };
    try {
      const saved = schedule
        ? await api.call(ops.updateSchedule, { params: { id: schedule.id }, body })
        : await api.call(ops.createSchedule, { body: { agent_id: agent.id, ...body } });
      setError(null);
      onSaved(saved);
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  };

  const f = (n: string) => `${uid}-${n}`;
  return (
    <form
      className="card stack schedule-form"
      aria-label={schedule ? t('schedules.form.editTitle') : t('schedules.form.newTitle')}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 className="section-title" style={{ marginTop: 0 }}>
        {schedule ? t('schedules.form.editTitle') : t('schedules.form.newTitle')}
      </h2>
      <div className="schedule-grid">
        <div className="field">
          <label htmlFor={f('agent')}>{t('usage.agent')}</label>
          <select id={f('agent')} value={agentId ?? ''} disabled={!!schedule} onChange={(e) => setAgentId(Number(e.target.value))} {...describedBy(worded, 'agent', f('agent-error'))} data-testid="schedule-agent">
            {agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.title}
              </option>
            ))}
          </select>
          <FieldError id={f('agent-error')} text={worded.fields.agent} />
        </div>
        <div className="field">
          <label htmlFor={f('name')}>{t('schedules.form.name')}</label>
          <input id={f('name')} value={name} maxLength={200} placeholder={t('schedules.form.nameExample')} onChange={(e) => setName(e.target.value)} {...describedBy(worded, 'name', f('name-error'))} />
          <FieldError id={f('name-error')} text={worded.fields.name} />
        </div>
      </div>
      <fieldset className="schedule-when">
        <legend>{t('schedules.form.when')}</legend>
        <div className="row">
          <label className="field inline">
            <input type="radio" name={f('mode')} checked={mode === 'every'} onChange={() => setMode('every')} />
            <span>{t('schedules.form.everyN')}</span>
          </label>
          <label className="field inline">
            <input type="radio" name={f('mode')} checked={mode === 'cron'} onChange={() => setMode('cron')} />
            <span>{t('schedules.form.cronMode')}</span>
          </label>
        </div>
        <div className="schedule-grid">
          {mode === 'every' ? (
            <div className="field">
              <label htmlFor={f('every')}>{t('schedules.form.minutes')}</label>
              <input id={f('every')} type="number" min={1} max={527040} step={1} value={every} onChange={(e) => setEvery(e.target.value)} aria-invalid={everyBad || !!worded.fields.every || undefined} aria-describedby={everyBad || worded.fields.every ? f('every-error') : undefined} data-testid="schedule-every" />
              <FieldError id={f('every-error')} text={everyBad ? t('schedules.form.wholeMinutes') : worded.fields.every} />
            </div>
          ) : (
            <div className="field">
              <label htmlFor={f('cron')}>{t('schedules.form.cron')}</label>
              <input
                id={f('cron')}
                value={cron}
                spellCheck={false}
                onChange={(e) => setCron(e.target.value)}
                aria-invalid={!!(cronBad || worded.fields.cron) || undefined}
                aria-describedby={`${f('cron-help')}${cronBad || worded.fields.cron ? ` ${f('cron-error')}` : ''}`}
                data-testid="schedule-cron"
              />
              <FieldError id={f('cron-error')} text={cronBad ?? worded.fields.cron} />
              <p id={f('cron-help')} className="small muted field-help">
                <Trans i18nKey="schedules.form.cronHelp" components={{ code: <code /> }} />
              </p>
            </div>
          )}
          <div className="field">
            <label htmlFor={f('zone')}>{t('schedules.form.zone')}</label>
            <select id={f('zone')} value={zone} onChange={(e) => setZone(e.target.value)} {...describedBy(worded, 'zone', f('zone-error'))} data-testid="schedule-zone">
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
            <FieldError id={f('zone-error')} text={worded.fields.zone} />
          </div>
        </div>
        <p className="small schedule-preview" role="status" data-testid="schedule-preview">
          {timingProblem ? (
            <span className="muted">{t('schedules.form.noNext')}</span>
          ) : (
            <>
              <strong>{describeTiming(timing)}</strong>
              {next ? <span> · {t('schedules.form.nextRun', { when: formatAt(next) })}</span> : null}
            </>
          )}
        </p>
      </fieldset>
      {agent ? (
        <fieldset className="schedule-send">
          <legend>{isChat ? t('schedules.form.sends') : t('schedules.form.answersSent')}</legend>
          {isChat ? (
            <div className="field">
              <label htmlFor={f('message')}>{t('schedules.form.message')}</label>
              <textarea id={f('message')} rows={3} value={message} placeholder={t('schedules.form.messageExample')} onChange={(e) => setMessage(e.target.value)} {...describedBy(worded, 'message', f('message-error'))} data-testid="schedule-message" />
              <FieldError id={f('message-error')} text={worded.fields.message} />
            </div>
          ) : null}
          <AnswerFields questions={agent.questions} answers={answers} onChange={setAnswers} idPrefix={f('a')} errors={answerErrors} />
        </fieldset>
      ) : null}
      <FormError worded={worded} error={error} />
      <div className="row end">
        {problem && !timingProblem ? <span className="small muted grow">{problem}</span> : <span className="grow" />}
        {onCancel ? (
          <button type="button" className="btn" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        ) : null}
        <button type="submit" className="btn btn-primary" disabled={!!problem || saving}>
          {schedule ? t('settings.providerForm.saveChanges') : t('schedules.form.create')}
        </button>
      </div>
    </form>
  );
}
