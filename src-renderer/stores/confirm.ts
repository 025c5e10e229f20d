import type { ReactNode } from 'react';
import { create } from 'zustand';

export interface ConfirmRequest {
  /** The question, naming what goes: "Delete the webhook to http://…?" */
  title: string;
  /** What follows from it, in a sentence or two. */
  body?: ReactNode;
  /** The action's own word: "Delete", "Remove", "Revoke". */
  confirmLabel: string;
  /** Destructive: the confirm button is red (Cancel keeps the focus either way). */
  danger?: boolean;
}

interface Pending extends ConfirmRequest {
  answer(ok: boolean): void;
}

/** The question the confirm dialog shows now (ConfirmHost renders it). */
export const useConfirmStore = create<{ pending: Pending | null }>(() => ({ pending: null }));

/**
 * Asks through the app's confirm dialog; resolves true on the confirm button, false on Cancel or
 * Esc. A new question while one is open answers the older one "no".
 */
export function askConfirm(req: ConfirmRequest): Promise<boolean> {
  return new Promise((resolve) => {
    useConfirmStore.getState().pending?.answer(false);
    const answer = (ok: boolean) => {
      if (useConfirmStore.getState().pending === pending) useConfirmStore.setState({ pending: null });
      resolve(ok);
    };
    const pending: Pending = { ...req, answer };
    useConfirmStore.setState({ pending });
  });
}

/** The confirm for components: `const confirm = useConfirm(); if (!(await confirm({...}))) return;` */
export function useConfirm(): typeof askConfirm {
  return askConfirm;
}
