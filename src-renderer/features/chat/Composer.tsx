import { useEffect, useRef, useState } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { useChat } from '../../stores/chat';
import { missingAnswers, mainTextQuestion } from './answers';
import { pickFiles } from '../../components/pick-files';
import { AttachmentChips, attachmentBlock } from './AttachmentChips';
import { enterAction, useChatPrefs } from './prefs';
import { preloadMarkdown } from '../../components/Markdown';

export function Composer({ agent }: { agent: Agent | null }) {
  const [text, setText] = useState('');
  const { send, stop, busy, attachments, attach, answers, turns, setEditing } = useChat();
  const { enterSends, setEnterSends } = useChatPrefs();
  const box = useRef<HTMLTextAreaElement>(null);
  const main = agent && agent.type !== 'chat' ? mainTextQuestion(agent.questions) : null;
  const missing = agent ? missingAnswers(agent.questions, answers).filter((n) => n !== main?.name) : [];
  const blocked = attachmentBlock(attachments);
  const canSend = !!agent && !busy && !!text.trim() && !missing.length && !blocked;

  const submit = () => {
    if (!canSend) return;
    const t = text;
    setText('');
    void send(t);
  };

  useEffect(() => {
    // Esc stops a running answer wherever focus is.
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && useChat.getState().busy) {
        e.preventDefault();
        void stop();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [stop]);

  useEffect(() => {
    if (!busy) box.current?.focus({ preventScroll: true });
  }, [busy]);

  const sendKeys = enterSends ? 'Enter' : 'Ctrl+Enter';
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <AttachmentChips />
      {missing.length ? <p className="muted small">Answer first: {missing.join(', ')}</p> : null}
      {blocked ? (
        <p className={attachments.some((a) => a.error) ? 'note note-error small' : 'muted small'} role="status" data-testid="send-blocked">
          {blocked}
        </p>
      ) : null}
      <div className="composer-row">
        <label className="sr-only" htmlFor="chat-input">
          {main ? main.description || main.name : 'Message'}
        </label>
        <textarea
          id="chat-input"
          ref={box}
          rows={3}
          value={text}
          placeholder={main ? `${main.description || main.name.replace(/_/g, ' ')}…` : 'Write a message…'}
          onFocus={preloadMarkdown}
          onChange={(e) => setText(e.target.value)}
          onPaste={(e) => {
            // Files and images pasted (a screenshot, files copied in the file manager) attach.
            const files = Array.from(e.clipboardData.files);
            if (!files.length) return;
            // Handled here (pasted screenshots get a unique name), not again by the app-wide drop zone.
            e.preventDefault();
            e.stopPropagation();
            void attach(files.map((f, i) => (f.name && f.name !== 'image.png' ? f : new File([f], `pasted-${Date.now()}-${i}.${f.type.split('/')[1] || 'bin'}`, { type: f.type }))));
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowUp' && !text && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
              // Up on an empty composer edits the last message, as in chat apps.
              const last = turns[turns.length - 1];
              if (last && !busy) {
                e.preventDefault();
                setEditing(last.key);
              }
              return;
            }
            const action = enterAction({ ...e, isComposing: e.nativeEvent.isComposing, keyCode: e.keyCode }, enterSends);
            if (action === 'send') {
              e.preventDefault();
              submit();
            }
          }}
        />
        <div className="composer-actions">
          <button type="button" className="btn" onClick={() => void pickFiles().then((f) => (f.length ? attach(f) : undefined))} disabled={busy}>
            Attach
          </button>
          {busy ? (
            <button type="button" className="btn btn-danger" onClick={() => void stop()} data-testid="stop">
              Stop <kbd>Esc</kbd>
            </button>
          ) : (
            <button type="submit" className="btn btn-primary" disabled={!canSend} data-testid="send">
              Send <kbd>{sendKeys}</kbd>
            </button>
          )}
        </div>
      </div>
      <div className="composer-hints small muted">
        <span>
          <kbd>{sendKeys}</kbd> sends, <kbd>{enterSends ? 'Shift+Enter' : 'Enter'}</kbd> adds a line, <kbd>↑</kbd> edits your last message
        </span>
        <label className="check">
          <input type="checkbox" checked={!enterSends} onChange={(e) => setEnterSends(!e.target.checked)} data-testid="ctrl-enter-sends" /> Send with Ctrl+Enter
        </label>
      </div>
    </form>
  );
}
