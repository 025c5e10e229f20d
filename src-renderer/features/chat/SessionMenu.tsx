import { useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n';
import { toast } from '../../stores/toasts';
import { useSessions, type Session } from '../../stores/sessions';
import { ExportMenuItems } from './ExportMenu';

/**
 * A session's "More" menu: pin it to the top, archive it (out of the chats, still searchable) or
 * back, and download it. A menu as people know it: arrows move, Esc closes, focus goes back.
 */
export function SessionMenu({ session: s, name }: { session: Session; name: string }) {
  const t = useT();
  const update = useSessions((st) => st.updateSession);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const items = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    // A click elsewhere closes it, as a menu does.
    const onDown = (e: PointerEvent) => {
      if (!menu.current?.contains(e.target as Node) && e.target !== button.current) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  const close = (focusBack = true) => {
    setOpen(false);
    if (focusBack) button.current?.focus();
  };
  const onKey = (e: React.KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      list[(at + (e.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length]?.focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      list[e.key === 'Home' ? 0 : list.length - 1]?.focus();
    } else if (e.key === 'Tab') {
      close(false);
    }
  };
  const title = s.title || t('sessions.item.untitled');
  const act = (change: { pinned?: boolean; archived?: boolean }, said: string) => async () => {
    close();
    if (await update(s.id, change)) toast(said);
  };

  return (
    <div className="session-menu-wrap">
      <button
        ref={button}
        type="button"
        className="btn-icon"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={t('sessions.item.moreLabel', { name })}
        title={t('sessions.item.more')}
        onClick={() => setOpen(!open)}
        data-testid="session-more"
      >
        ⋯
      </button>
      {open ? (
        <div ref={menu} role="menu" className="session-menu" aria-label={t('sessions.item.moreLabel', { name })} onKeyDown={onKey}>
          <button type="button" role="menuitem" className="menu-item" onClick={act({ pinned: !s.pinned }, s.pinned ? t('sessions.item.unpinnedToast', { title }) : t('sessions.item.pinnedToast', { title }))} data-testid="session-pin">
            {s.pinned ? t('sessions.item.unpin') : t('sessions.item.pin')}
          </button>
          <button
            type="button"
            role="menuitem"
            className="menu-item"
            onClick={act({ archived: !s.archived }, s.archived ? t('sessions.item.unarchivedToast', { title }) : t('sessions.item.archivedToast', { title }))}
            data-testid="session-archive"
          >
            {s.archived ? t('sessions.item.unarchive') : t('sessions.item.archive')}
          </button>
          <ExportMenuItems rootId={s.id} onDone={() => close()} />
        </div>
      ) : null}
    </div>
  );
}
