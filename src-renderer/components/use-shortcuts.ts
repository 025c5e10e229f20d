import { useEffect } from 'react';
import { SCREENS, useNav } from '../stores/nav';
import { useShortcutsSheet } from '../stores/shortcuts';

function typing(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/** A new chat, its message box focused (from any screen). */
export function startNewChat(): void {
  useNav.getState().go('chat', '');
  requestAnimationFrame(() => document.getElementById('chat-input')?.focus());
}

/**
 * "g" then a screen's letter opens it (as in many web apps; Ctrl/Alt+digit belong to the
 * browser's tabs). "/" focuses the current screen's search box. Single keys never act while a
 * text box has focus (Esc leaves the message box first). Ctrl/⌘+Shift+O starts a new chat (as in
 * ChatGPT); "?" or Ctrl+/ shows the shortcuts sheet.
 */
export function useShortcuts() {
  useEffect(() => {
    let pendingG = 0;
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && !e.altKey && e.shiftKey && e.key.toLowerCase() === 'o') {
        e.preventDefault();
        startNewChat();
        return;
      }
      if (mod && !e.altKey && e.key === '/') {
        e.preventDefault();
        useShortcutsSheet.getState().setOpen(true);
        return;
      }
      if (mod || e.altKey || typing(e.target) || e.defaultPrevented) return;
      if (e.key === '?') {
        e.preventDefault();
        useShortcutsSheet.getState().setOpen(true);
        return;
      }
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
