import { useEffect } from 'react';
import { SCREENS, useNav } from '../stores/nav';

function typing(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/**
 * "g" then a screen's letter opens it (as in many web apps; Ctrl/Alt+digit belong to the
 * browser's tabs). "/" focuses the current screen's search box.
 */
export function useShortcuts() {
  useEffect(() => {
    let pendingG = 0;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (e.key === 'g') {
        pendingG = Date.now();
        return;
      }
      if (pendingG && Date.now() - pendingG < 1500) {
        pendingG = 0;
        const s = SCREENS.find((x) => x.key === e.key);
        if (s) {
          e.preventDefault();
          useNav.getState().go(s.id);
        }
        return;
      }
      if (e.key === '/') {
        const search = document.querySelector<HTMLInputElement>('main input[type="search"]');
        if (search) {
          e.preventDefault();
          search.focus();
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
