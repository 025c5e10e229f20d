import { create } from 'zustand';

/** Whether the keyboard shortcuts sheet is open (`?` or Ctrl+/ opens it anywhere in the app). */
export const useShortcutsSheet = create<{ open: boolean; setOpen(open: boolean): void }>((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));

/** Ctrl on Windows and Linux, ⌘ on a Mac: what the sheet and the hints name. */
export const MOD = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl';
