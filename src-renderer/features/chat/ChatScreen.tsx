import { useEffect, useRef, useState } from 'react';
import { useAgents } from '../../stores/agents';
import { useAgentChoice } from '../../stores/agent-choice';
import { selectTurns, useConversation } from '../../stores/conversation';
import { AgentPicker } from './AgentPicker';
import { SessionList } from './SessionList';
import { TurnView } from './TurnView';
import { Composer } from './Composer';
import { ErrorNote } from '../../components/ErrorNote';
import { RemoteBanner } from './RemoteBanner';
import { useRemote } from '../settings/remote-store';
import { isRemoteErrorCode } from '../settings/remote-api';
import { SetupPanel } from '../setup/SetupPanel';
import { useNeedsSetup } from '../setup/setup-store';
import { JumpToLatest } from './JumpToLatest';
import { useSessionUrl } from './use-session-url';
import { useChatPrefs } from './prefs';

export function ChatScreen() {
  const { agents, loaded, error } = useAgents();
  const needsSetup = useNeedsSetup();
  const agentId = useAgentChoice((s) => s.agentId);
  const { selectAgent, loadingSession, sentSeq, rootId } = useConversation();
  const turns = useConversation(selectTurns);
  const enterSends = useChatPrefs((s) => s.enterSends);
  const agent = agents.find((a) => a.id === agentId) ?? null;
  const list = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const [away, setAway] = useState(false);
  useSessionUrl(agents, loaded);

  const toEnd = () => {
    stick.current = true;
    setAway(false);
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  };

  useEffect(() => {
    // Follow the answer as it grows, unless the user has scrolled up to read.
    if (stick.current && list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [turns]);

  // The message just sent always comes into view, wherever the user had scrolled.
  useEffect(() => {
    if (sentSeq) toEnd();
  }, [sentSeq]);

  const last = turns[turns.length - 1];
  const remoteFailure = last && isRemoteErrorCode(last.error?.code) ? last.key : null;
  useEffect(() => {
    // A remote failure changes the connection's recorded state: re-read it for the banner.
    if (remoteFailure) void useRemote.getState().load();
  }, [remoteFailure]);

  useEffect(() => {
    // Start on the first local chat agent, so the screen is usable without a choice (and offline);
    // not while a conversation named by the URL is opening (it brings its own agent).
    if (agentId === null && agents.length && rootId === null && useConversation.getState().rootId === null) selectAgent(agents.find((a) => a.type === 'chat' && a.source !== 'remote') ?? agents.find((a) => a.type === 'chat') ?? agents[0]);
  }, [agentId, agents, selectAgent, rootId]);

  return (
    <section className={`screen chat${needsSetup ? ' needs-setup' : ''}`} aria-labelledby="chat-title">
      <SessionList />
      <div className="chat-main">
        <header className="chat-head">
          <h1 id="chat-title" tabIndex={-1}>
            Chat
          </h1>
          <AgentPicker agents={agents} agent={agent} />
        </header>
        {error ? <ErrorNote error={error} what="Agents" /> : null}
        {loaded && !agents.length && !error ? <p className="note note-muted">No agents yet. Create one on the Agents screen.</p> : null}
        {agent?.source === 'remote' ? <RemoteBanner agent={agent} /> : null}
        {needsSetup ? <SetupPanel /> : null}
        <div className="turns-wrap">
          <div
            className="turns"
            ref={list}
            aria-live="polite"
            aria-busy={loadingSession}
            data-testid="turns"
            onScroll={(e) => {
              const el = e.currentTarget;
              stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
              setAway(!stick.current);
            }}
          >
            {loadingSession ? <p className="muted">Loading the conversation…</p> : null}
            {!turns.length && !loadingSession ? (
              <div className="empty-chat">
                <p>Ask {agent ? agent.title : 'an agent'} anything.</p>
                <p className="muted">
                  <kbd>{enterSends ? 'Enter' : 'Ctrl+Enter'}</kbd> sends, <kbd>Esc</kbd> stops. Drop or paste files to attach them.
                </p>
              </div>
            ) : null}
            {turns.map((t) => (
              <TurnView key={t.key} turn={t} />
            ))}
          </div>
          <JumpToLatest visible={away && turns.length > 0} onJump={toEnd} />
        </div>
        <Composer agent={agent} />
      </div>
    </section>
  );
}
