import { selectBusy, useConversation, type Turn } from '../../stores/conversation';
import { useT } from '../../i18n';

/** "‹ 2/3 ›": which of a turn's alternatives (regenerated answers, edited messages) is shown. */
export function AltSwitcher({ turn }: { turn: Turn }) {
  const t = useT();
  const choose = useConversation((s) => s.choose);
  const busy = useConversation(selectBusy);
  if (!turn.alts || turn.alts < 2 || !turn.siblings || !turn.alt) return null;
  const go = (d: number) => choose(turn.siblings![turn.alt! - 1 + d]);
  return (
    <span className="alt-switcher" data-testid="alt-switcher">
      <button type="button" className="btn-icon" aria-label={t('chat.alt.previous')} disabled={busy || turn.alt <= 1} onClick={() => go(-1)}>
        ‹
      </button>
      <span data-testid="alt-position">
        {turn.alt}/{turn.alts}
      </span>
      <button type="button" className="btn-icon" aria-label={t('chat.alt.next')} disabled={busy || turn.alt >= turn.alts} onClick={() => go(1)}>
        ›
      </button>
    </span>
  );
}
