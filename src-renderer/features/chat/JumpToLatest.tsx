/** Shown while the user reads higher up: one click back to the newest message. */
import { useT } from '../../i18n';

export function JumpToLatest({ visible, onJump }: { visible: boolean; onJump(): void }) {
  const t = useT();
  if (!visible) return null;
  return (
    <button type="button" className="btn jump-latest" onClick={onJump} data-testid="jump-latest">
      {t('chat.screen.jump')}
    </button>
  );
}
