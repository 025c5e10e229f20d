import { useEffect, useRef, useState } from 'react';
import { useConversation, type Turn } from '../../stores/conversation';
import { useChatPrefs } from '../../stores/chat-prefs';
import { enterAction } from './enter-action';
import { useT } from '../../i18n';

/** A sent message edited in place; "Send" branches the conversation from there (the old branch stays, 1/N). */
export function MessageEditor({ turn }: { turn: Turn }) {
  const t = useT();
  const [text, setText] = useState(turn.user);
  const resend = useConversation((s) => s.resend);
  const setEditing = useConversation((s) => s.setEditing);
  const enterSends = useChatPrefs((s) => s.enterSends);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    box.current?.focus();
    box.current?.setSelectionRange(text.length, text.length);
    // Focus once, when editing starts (the text then changes as the user types).
  }, []);
  const save = () => void resend(turn.key, text);
  return (
    <form
      className="msg-edit"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <label className="sr-only" htmlFor={`edit-${turn.key}`}>
        {t('chat.editor.label')}
      </label>
      <textarea
        id={`edit-${turn.key}`}
        ref={box}
        rows={Math.min(8, Math.max(2, text.split('\n').length))}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            setEditing(null);
          } else if (enterAction({ ...e, isComposing: e.nativeEvent.isComposing, keyCode: e.keyCode }, enterSends) === 'send') {
            e.preventDefault();
            save();
          }
        }}
      />
      <div className="msg-edit-actions">
        <button type="button" className="btn btn-small" onClick={() => setEditing(null)}>
          {t('chat.editor.cancel')}
        </button>
        <button type="submit" className="btn btn-small btn-primary" disabled={!text.trim()} data-testid="edit-send">
          {t('chat.editor.send')}
        </button>
      </div>
    </form>
  );
}
