import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useAgents } from '../../stores/agents';
import { useAgentChoice } from '../../stores/agent-choice';
import { firstChatAgent, selectTurns, useConversation } from '../../stores/conversation';
import { AgentPicker } from './AgentPicker';
import { SessionList } from './SessionList';
import { TurnView } from './TurnView';
import { Composer } from './Composer';
import { ChatInstructions } from './ChatInstructions';
import { ErrorNote } from '../../components/ErrorNote';
import { RemoteBanner } from './RemoteBanner';
import { useRemote } from '../settings/remote-store';
import { isRemoteErrorCode } from '../settings/remote-api';
import { SetupPanel } from '../setup/SetupPanel';
import { useNeedsSetup, useSetup } from '../setup/setup-store';
import { ProviderNotice, providerProblems } from './ProviderNotice';
import { GoneAgentNotice } from './GoneAgentNotice';
import { JumpToLatest } from './JumpToLatest';
import { FindBar } from './FindBar';
import { useSessions } from '../../stores/sessions';
import { useSessionUrl } from './use-session-url';
import { useChatPrefs } from './prefs';
import { Trans, useT } from '../../i18n';
import { draftKey } from '../../stores/drafts';
import { scrollPlaces } from '../../stores/places';

export function ChatScreen() {
  const t = useT();
  const { agents, loaded, error } = useAgents();
  const needsSetup = useNeedsSetup();
  const setupStatus = useSetup((s) => s.status);
  const sources = useSetup((s) => s.sources);
  const agentId = useAgentChoice((s) => s.agentId);
  const { selectAgent, loadingSession, sentSeq, rootId } = useConversation();
  const turns = useConversation(selectTurns);
  const enterSends = useChatPrefs((s) => s.enterSends);
  const agent = agents.find((a) => a.id === agentId) ?? null;
  const list = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  /** The list's scrollTop at its last scroll event: only a move up is the user leaving the end. */
  const lastTop = useRef(0);
  const [away, setAway] = useState(false);
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

  const toEnd = () => {
    stick.current = true;
    setAway(false);
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  };

  useEffect(() => {
    // Follow the answer as it grows, unless the user has scrolled up to read.
    if (stick.current && list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [turns]);

  // Back on a conversation read before (another screen, another chat): where it was left.
  const placeKey = draftKey(rootId);
  const restored = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (loadingSession || !turns.length || restored.current === placeKey || !list.current) return;
    restored.current = placeKey;
    const place = scrollPlaces.get(placeKey);
    if (!place || place.atEnd) return toEnd();
    list.current.scrollTop = place.top;
    stick.current = false;
    setAway(true);
  }, [placeKey, loadingSession, turns.length]);

  // The message just sent always comes into view, wherever the user had scrolled.
  useEffect(() => {
    if (sentSeq) toEnd();
  }, [sentSeq]);

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
            scroller={list}
            query={findQuery}
            setQuery={setFindQuery}
            version={turns}
            onClose={() => {
              setFinding(false);
              document.getElementById('chat-input')?.focus();
            }}
          />
        ) : null}
        <div className="turns-wrap">
          <div
            className="turns"
            ref={list}
            aria-live="polite"
            aria-busy={loadingSession}
            data-testid="turns"
            onScroll={(e) => {
              const el = e.currentTarget;
              const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
              const movedUp = el.scrollTop < lastTop.current;
              lastTop.current = el.scrollTop;
              // Following the end, the list can fall short of it without the user scrolling up (a turn
              // laid out taller than its placeholder, Jump to latest leaving the flow): follow it again.
              // Not while finding: the find bar scrolls to its match, and one coalesced scroll event
              // may not read as a move up.
              if (stick.current && !atEnd && !movedUp && !finding) {
                el.scrollTop = el.scrollHeight;
                return;
              }
              stick.current = atEnd;
              setAway(!atEnd);
              if (restored.current === placeKey) scrollPlaces.set(placeKey, { top: el.scrollTop, atEnd: stick.current });
            }}
          >
            {loadingSession ? <p className="muted">{t('chat.screen.loading')}</p> : null}
            {!turns.length && !loadingSession ? (
              <div className="empty-chat">
                <p>{agent ? t('chat.screen.ask', { name: agent.title }) : t('chat.screen.askAny')}</p>
                <p className="muted">
                  <Trans i18nKey="chat.screen.hint" values={{ send: enterSends ? 'Enter' : 'Ctrl+Enter' }} components={{ kbd: <kbd /> }} />
                </p>
              </div>
            ) : null}
            {turns.map((turn) => (
              <TurnView key={turn.key} turn={turn} />
            ))}
          </div>
          <JumpToLatest visible={away && turns.length > 0} onJump={toEnd} />
        </div>
        {!firstRun && agent?.source !== 'remote' ? <ProviderNotice problems={problems} /> : null}
        {agentGone ? <GoneAgentNotice agents={agents} /> : null}
        <ChatInstructions agent={agent} />
        <Composer agent={agent} />
      </div>
    </section>
  );
}
