import { useEffect, useRef } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { useConversation } from '../../stores/conversation';
import { useSessions } from '../../stores/sessions';
import { useNav } from '../../stores/nav';

/**
 * The open conversation lives in the URL (#/chat/<session id>), so a reload, a shared link and
 * the browser's back and forward all land on it.
 */
export function useSessionUrl(agents: Agent[], agentsLoaded: boolean) {
  const sub = useNav((s) => (s.screen === 'chat' ? s.sub : ''));
  const go = useNav((s) => s.go);
  const rootId = useConversation((s) => s.rootId);

  // URL → conversation (first load, back/forward, a pasted link).
  useEffect(() => {
    if (!agentsLoaded) return;
    const wanted = /^\d+$/.test(sub) ? Number(sub) : null;
    const { rootId: open, openSession, newSession } = useConversation.getState();
    if (wanted === open) return;
    if (wanted === null) newSession();
    else {
      const s = useSessions.getState().sessions.find((x) => x.id === wanted);
      void openSession(wanted, agents.find((a) => a.id === s?.agent_id));
    }
    // Only a change of the URL (or the first load of agents) opens a conversation.
  }, [sub, agentsLoaded]);

  // Conversation → URL (a new session got its id, one was opened or closed in the app); only on
  // a change, never at mount, when the URL is what names the conversation to open.
  const seen = useRef(rootId);
  useEffect(() => {
    if (seen.current === rootId) return;
    seen.current = rootId;
    const want = rootId === null ? '' : String(rootId);
    const cur = useNav.getState();
    if (cur.screen === 'chat' && cur.sub !== want) go('chat', want);
  }, [rootId, go]);
}
