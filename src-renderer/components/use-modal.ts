import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * Gives focus back to what had it before a dialog opened. When that element is gone (the row a
 * confirmed delete removed, now or once the list reloads), the screen's heading takes it, so
 * focus never falls to the page.
 */
export function returnFocus(opener: Element | null): void {
  const heading = () => document.querySelector<HTMLElement>('main h1');
  if (!(opener instanceof HTMLElement) || opener === document.body || !opener.isConnected) {
    heading()?.focus({ preventScroll: true });
    return;
  }
  opener.focus({ preventScroll: true });
  // The opener may leave the page right after (its row deleted on the confirm's answer): focus
  // would then be on nothing. Watched until it is gone or focus moves on.
  const lost = () => !opener.isConnected && (document.activeElement === null || document.activeElement === document.body);
  const watch = new MutationObserver(() => {
    if (lost()) {
      done();
      heading()?.focus({ preventScroll: true });
    }
  });
  const onBlur = () =>
    setTimeout(() => {
      if (opener.isConnected) done();
    });
  const done = () => {
    watch.disconnect();
    opener.removeEventListener('blur', onBlur);
  };
  watch.observe(document.body, { childList: true, subtree: true });
  opener.addEventListener('blur', onBlur);
}

/**
 * A modal <dialog> driven by `open`: shown in the top layer (focus kept inside, Esc handled by
 * its cancel event), and on close or unmount focus goes back to the element that opened it.
 */
export function useModalDialog(ref: RefObject<HTMLDialogElement | null>, open: boolean): void {
  const opener = useRef<Element | null>(null);
  // Noted while rendering the opening, before React's autoFocus moves focus into the dialog.
  const seen = useRef<Element | null>(null);
  if (open && !opener.current) seen.current = document.activeElement;
  useLayoutEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      const before = seen.current;
      opener.current = before && !d.contains(before) ? before : document.activeElement;
      d.showModal();
    } else if (!open && d.open) {
      d.close();
      returnFocus(opener.current);
      opener.current = null;
    }
  }, [ref, open]);
  // Unmounted while open (its owner removed it): the dialog leaves with it, focus goes back too.
  useEffect(() => {
    const d = ref.current;
    return () => {
      // Still on the page: a re-run, not an unmount (React's strict mode does that in development).
      if (d?.isConnected || !opener.current) return;
      returnFocus(opener.current);
      opener.current = null;
    };
  }, [ref]);
}
