import { useEffect, useRef, useState } from 'react';
import { useAgents } from '../../stores/agents';
import { useAgentChoice } from '../../stores/agent-choice';
import { firstChatAgent, selectTurns, useConversation } from '../../stores/conversation';
import { AgentPicker } from './AgentPicker';
import { SessionList } from './SessionList';
import { ConversationList, type ConversationHandle } from './ConversationList';
import { Composer } from './Composer';
import { ChatInstructions } from './ChatInstructions';
import { ErrorNote } from '../../components/ErrorNote';
import { RemoteBanner } from './RemoteBanner';
import { useRemote } from '../../stores/remote';
import { isRemoteErrorCode } from '../settings/remote-errors';
import { SetupPanel } from '../setup/SetupPanel';
import { useNeedsSetup, useSetup } from '../../stores/setup';
import { ProviderNotice, providerProblems } from './ProviderNotice';
import { GoneAgentNotice } from './GoneAgentNotice';
import { FindBar } from './FindBar';
import { useSessions } from '../../stores/sessions';
import { useSessionUrl } from './use-session-url';
import { useChatPrefs } from '../../stores/chat-prefs';
import { Trans, useT } from '../../i18n';

export function ChatScreen() {
  const t = useT();
  const { agents, loaded, error } = useAgents();
  const needsSetup = useNeedsSetup();
  const setupStatus = useSetup((s) => s.status);
  const sources = useSetup((s) => s.sources);
  const agentId = useAgentChoice((s) => s.agentId);
  const selectAgent = useConversation((s) => s.selectAgent);
  const loadingSession = useConversation((s) => s.loadingSession);
  const rootId = useConversation((s) => s.rootId);
  const turns = useConversation(selectTurns);
  const enterSends = useChatPrefs((s) => s.enterSends);
  const agent = agents.find((a) => a.id === agentId) ?? null;
  const list = useRef<ConversationHandle>(null);
  useSessionUrl(agents, loaded);
  const [finding, setFinding] = useState(false);
  const [findQuery, setFindQuery] = useState('');

  // Ctrl+F / Cmd+F finds in the conversation (the browser's own find does not reach the chat's scroller well).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        setFinding(true);
        document.getElementById('find-input')?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // A conversation opened from a search of the list opens with the words searched highlighted.
  const openedSeq = useConversation((s) => s.openedSeq);
  const seenOpened = useRef(openedSeq);
  // The list's search as it was when the conversation was chosen (the list may reload meanwhile).
  const listQuery = useSessions((s) => s.sessionsQuery);
  const searchedFor = useRef('');
  useEffect(() => {
    searchedFor.current = listQuery;
    // Only when another conversation is chosen, not when the list's search changes later.
  }, [rootId]);
  useEffect(() => {
    if (seenOpened.current === openedSeq) return;
    seenOpened.current = openedSeq;
    // Opening a conversation asks the providers again, so a notice tells of one that stopped since.
    void useSetup.getState().check({ fresh: true });
    const q = searchedFor.current.trim();
    if (q && useConversation.getState().tree.length) {
      setFindQuery(q);
      setFinding(true);
    }
  }, [openedSeq]);

  const last = turns[turns.length - 1];
  const remoteFailure = last && isRemoteErrorCode(last.error?.code) ? last.key : null;
  const failedLast = last?.status === 'failed' && !isRemoteErrorCode(last.error?.code) ? last.key : null;
  useEffect(() => {
    // An answer that failed may be a provider that stopped: ask the providers again for the notice.
    if (failedLast) void useSetup.getState().check({ fresh: true });
  }, [failedLast]);
  useEffect(() => {
    // A remote failure changes the connection's recorded state: re-read it for the banner.
    if (remoteFailure) void useRemote.getState().load();
  }, [remoteFailure]);

  useEffect(() => {
    // Start on the first local chat agent, so the screen is usable without a choice (and offline);
    // not while a conversation named by the URL is opening (it brings its own agent).
    const first = firstChatAgent(agents);
    if (agentId === null && first && rootId === null && useConversation.getState().rootId === null) selectAgent(first);
  }, [agentId, agents, selectAgent, rootId]);

  // The first-run panel only where there is nothing to read: no provider at all and no conversation
  // open. Any other provider problem is a notice above the composer, with the history in place.
  const firstRun = needsSetup && !sources.length && rootId === null && !turns.length && !loadingSession;
  const problems = needsSetup || sources.some((s) => !s.ok) ? providerProblems(setupStatus, sources) : [];
  const agentGone = loaded && agentId !== null && !agent && rootId !== null && !loadingSession;

  return (
    <section className={`screen chat${firstRun ? ' needs-setup' : ''}`} aria-labelledby="chat-title">
      <SessionList />
      <div className="chat-main">
        <header className="chat-head">
          <h1 id="chat-title" tabIndex={-1}>
            {t('chat.screen.title')}
          </h1>
          <AgentPicker agents={agents} agent={agent} />
        </header>
        {error ? <ErrorNote error={error} what={t('chat.screen.agents')} /> : null}
        {loaded && !agents.length && !error ? <p className="note note-muted">{t('chat.screen.noAgents')}</p> : null}
        {agent?.source === 'remote' ? <RemoteBanner agent={agent} /> : null}
        {firstRun ? <SetupPanel /> : null}
        {finding ? (
          <FindBar
            list={list}
            turns={turns}
            query={findQuery}
            setQuery={setFindQuery}
            onClose={() => {
              setFinding(false);
              document.getElementById('chat-input')?.focus();
            }}
          />
        ) : null}
        <ConversationList
          turns={turns}
          finding={finding}
          handle={list}
          empty={
            <div className="empty-chat">
              <p>{agent ? t('chat.screen.ask', { name: agent.title }) : t('chat.screen.askAny')}</p>
              <p className="muted">
                <Trans i18nKey="chat.screen.hint" values={{ send: enterSends ? 'Enter' : 'Ctrl+Enter' }} components={{ kbd: <kbd /> }} />
              </p>
            </div>
          }
        />
        {!firstRun && agent?.source !== 'remote' ? <ProviderNotice problems={problems} /> : null}
        {agentGone ? <GoneAgentNotice agents={agents} /> : null}
        <ChatInstructions agent={agent} />
        <Composer agent={agent} />
      </div>
    </section>
  );
}
