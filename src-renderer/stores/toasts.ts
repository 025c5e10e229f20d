import { create } from 'zustand';

export interface Toast {
  id: number;
  kind: 'info' | 'error';
  text: string;
}

interface ToastState {
  toasts: Toast[];
  show(text: string, kind?: Toast['kind']): void;
  dismiss(id: number): void;
}

let next = 1;

/** Short notices for actions whose result is not otherwise visible (copied, saved, failed). */
export const useToasts = create<ToastState>((set, get) => ({
  toasts: [],
  show(text, kind = 'info') {
    const id = next++;
    set({ toasts: [...get().toasts.slice(-3), { id, kind, text }] });
    setTimeout(() => get().dismiss(id), kind === 'error' ? 8000 : 3000);
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((t) => t.id !== id) });
  },
}));

export const toast = (text: string, kind?: Toast['kind']) => useToasts.getState().show(text, kind);
