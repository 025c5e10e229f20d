import { useEffect, useRef, useState } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { useChat } from '../../stores/chat';
import { missingAnswers } from './answers';
import { pickFiles } from '../../components/pick-files';

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function Composer({ agent }: { agent: Agent | null }) {
  const [text, setText] = useState('');
  const { send, stop, busy, attachments, attach, detach, answers } = useChat();
  const box = useRef<HTMLTextAreaElement>(null);
  const missing = agent ? missingAnswers(agent.questions, answers) : [];
  const uploading = attachments.some((a) => a.fileId === null && !a.error);
  const canSend = !!agent && !busy && !!text.trim() && !missing.length && !uploading;

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

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {attachments.length ? (
        <ul className="chips" aria-label="Attachments">
          {attachments.map((a) => (
            <li key={a.key} className={a.error ? 'chip chip-error' : 'chip'} title={a.error}>
              {a.name} <span className="muted small">{a.error ? 'failed' : a.status}</span>
              <button type="button" className="btn-icon" aria-label={`Remove ${a.name}`} onClick={() => detach(a.key)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {missing.length ? <p className="muted small">Answer first: {missing.join(', ')}</p> : null}
      <div className="composer-row">
        <label className="sr-only" htmlFor="chat-input">
          Message
        </label>
        <textarea
          id="chat-input"
          ref={box}
          rows={3}
          value={text}
          placeholder="Write a message…"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
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
              Send <kbd>{MAC ? '⌘↵' : 'Ctrl+Enter'}</kbd>
            </button>
          )}
        </div>
      </div>
    </form>
  );
}
