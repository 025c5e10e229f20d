import { useEffect, useRef, useState } from 'react';
import type { Agent, Question } from '../../../src-main/platform/contract/agents';
import { useAgentChoice } from '../../stores/agent-choice';
import { setAnswer } from '../../stores/chat';
import { useNav } from '../../stores/nav';
import { QuestionInput } from './QuestionInput';
import { ModelPicker } from './ModelPicker';
import { mainTextQuestion, shownQuestions } from '../../stores/answers';
import { answerWords, isWebToolsQuestion, optionWords, questionLabel, toolsSummary, webToolName } from './option-words';
import { useAgentTools, type AgentTools } from './use-tool-servers';
import { WebSearchMissing, useWebSearchReady } from '../settings/WebSearchMissing';
import './options-row.css';
import { Trans, useT } from '../../i18n';

type Panel = 'tools' | 'options' | null;

/**
 * The agent's options on one line above the composer: the model (picked right there), "Tools"
 * (the web search the answer may use and the agent's own tools, as one list in words) and the
 * other options summed up ("Temperature 0.5"); Tools and Options open a panel to change them.
 * An agent that is not a chat gets its main text question from the composer, so it is not here.
 */
export function OptionsRow({ agent }: { agent: Agent }) {
  const t = useT();
  const answers = useAgentChoice((s) => s.answers);
  const tools = useAgentTools(agent);
  const [open, setOpen] = useState<Panel>(null);
  const row = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const main = agent.type !== 'chat' ? mainTextQuestion(agent.questions)?.name : undefined;
  const questions = shownQuestions(agent.questions).filter((q) => q.name !== main);
  const model = questions.find((q) => q.name === 'model' && q.type === 'select');
  const web = questions.find(isWebToolsQuestion);
  const rest = questions.filter((q) => q !== model && q !== web);
  const hasTools = !!web || tools.servers.length > 0;
  const searchReady = useWebSearchReady(!!web);
  // Web search chosen (or the agent's default) with no search service set up: said here, with the ways on.
  const searchMissing = !!web && searchReady === false && webToolName(answers[web.name]) !== null;

  const close = (focusBack = true) => {
    setOpen(null);
    if (focusBack) opener.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    // A click elsewhere closes the panel (as a menu does), leaving focus where the click put it.
    const onDown = (e: PointerEvent) => {
      if (row.current && !row.current.contains(e.target as Node)) setOpen(null);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);
  useEffect(() => setOpen(null), [agent.id]);

  if (!questions.length && !hasTools) return null;
  const toggle = (panel: Exclude<Panel, null>) => (e: React.MouseEvent<HTMLButtonElement>) => {
    opener.current = e.currentTarget;
    setOpen(open === panel ? null : panel);
  };
  const missing = rest.filter((q) => q.required && q.type !== 'boolean' && answerWords(q, answers[q.name]) === null);
  const summary = rest
    .map((q) => [questionLabel(q), answerWords(q, answers[q.name])] as const)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k} ${v}`)
    .join(' · ');

  return (
    <div
      className="options-row"
      ref={row}
      data-testid="options-row"
      onKeyDown={(e) => {
        // Esc closes the panel (and does not stop a running answer).
        if (e.key === 'Escape' && open) {
          e.preventDefault();
          e.stopPropagation();
          close();
        }
      }}
    >
      <div className="options-line">
        {model ? (
          <span className="opt-chip opt-model">
            <label htmlFor="q-model">{t('chat.options.model')}</label>
            <ModelPicker id="q-model" value={String(answers.model ?? '')} options={model.options ?? []} required={!!model.required} onChange={(m) => setAnswer('model', m)} />
          </span>
        ) : null}
        {hasTools ? (
          <button type="button" className={`opt-chip${searchMissing ? ' opt-missing' : ''}`} aria-expanded={open === 'tools'} aria-controls="chat-tools-panel" onClick={toggle('tools')} data-testid="tools-chip">
            <span className="opt-key">{t('chat.options.tools')}</span> <span className="opt-value">{toolsSummary(web ? answers[web.name] : null, tools.servers.map((s) => s.name))}</span>
          </button>
        ) : null}
        {rest.length ? (
          <button
            type="button"
            className={`opt-chip${missing.length ? ' opt-missing' : ''}`}
            aria-expanded={open === 'options'}
            aria-controls="chat-options-panel"
            onClick={toggle('options')}
            data-testid="options-chip"
          >
            <span className="opt-key">{t('chat.options.options')}</span> <span className="opt-value">{missing.length ? t('chat.options.choose', { what: questionLabel(missing[0]).toLowerCase() }) : summary || t('chat.options.default')}</span>
          </button>
        ) : null}
      </div>
      {searchMissing && web ? <WebSearchMissing onWithout={() => setAnswer(web.name, 'no-tools')} /> : null}
      {open === 'tools' ? <ToolsPanel web={web} servers={tools.servers} searchReady={searchReady} /> : null}
      {open === 'options' ? (
        <div className="options-panel" id="chat-options-panel" role="group" aria-label={t('chat.options.options')}>
          {rest.map((q) => (
            <OptionField key={q.name} q={q} />
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** Web search (a choice) and the agent's own tools (set in the agent), as one list. */
function ToolsPanel({ web, servers, searchReady }: { web: Question | undefined; servers: AgentTools['servers']; searchReady: boolean | null }) {
  const value = useAgentChoice((s) => (web ? s.answers[web.name] : undefined));
  const go = useNav((s) => s.go);
  const t = useT();
  return (
    <div className="options-panel tools-panel" id="chat-tools-panel" role="group" aria-label={t('chat.options.tools')}>
      {web ? (
        <div className="field">
          <label htmlFor="q-tools">{t('chat.options.webSearch')}</label>
          <select id="q-tools" value={String(value ?? '')} onChange={(e) => setAnswer(web.name, e.target.value || undefined)} autoFocus>
            {!web.required ? <option value="">{optionWords(web, 'no-tools')}</option> : null}
            {(web.options ?? []).map((o) => (
              // Offered only when it can work: a search needs a search service set up.
              <option key={o} value={o} disabled={searchReady === false && webToolName(o) !== null && o !== value}>
                {optionWords(web, o)}
              </option>
            ))}
          </select>
          {searchReady === false ? <WebSearchMissing compact /> : null}
        </div>
      ) : null}
      <div className="field">
        <span>{t('chat.options.agentTools')}</span>
        {servers.length ? (
          <ul className="agent-tools" data-testid="agent-tools">
            {servers.map((s) => (
              <li key={s.id}>
                <strong>{s.name}</strong>{' '}
                <span className="muted small">
                  {s.tools ? s.tools.join(', ') : t('chat.options.allTools')}
                  {s.off ? t('chat.options.switchedOff') : ''}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted small">{t('chat.options.noServers')}</p>
        )}
        <p className="muted small">
          <Trans i18nKey="chat.options.whereSet" components={{ agents: <button type="button" className="btn-link" onClick={() => go('agents')} /> }} />
        </p>
      </div>
    </div>
  );
}

function OptionField({ q }: { q: Question }) {
  const value = useAgentChoice((s) => s.answers[q.name]);
  const id = `q-${q.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{questionLabel(q)}</label>
      <QuestionInput q={q} id={id} value={value} onChange={(v) => setAnswer(q.name, v)} />
      {q.description ? <small className="muted">{q.description}</small> : null}
    </div>
  );
}
