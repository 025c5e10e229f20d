import { useT } from '../i18n';

/**
 * The first Tab stop of the window: on the chat it jumps past the screens and the conversations
 * to the message box, elsewhere to the screen's heading. Hidden until it has focus.
 */
export function SkipLink({ chat }: { chat: boolean }) {
  const t = useT();
  return (
    <a
      className="skip-link"
      // The app routes by the hash: the click is handled here, the address never changes.
      href={chat ? '#chat-input' : '#main'}
      data-testid="skip-link"
      onClick={(e) => {
        e.preventDefault();
        const box = chat ? document.querySelector<HTMLTextAreaElement>('#chat-input:not([disabled])') : null;
        const target = box ?? document.querySelector<HTMLElement>('main h1');
        target?.focus();
      }}
    >
      {chat ? t('app.skipToMessageBox') : t('app.skipToContent')}
    </a>
  );
}
