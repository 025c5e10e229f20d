import { create } from 'zustand';

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'agent-desk.theme';

function apply(choice: ThemeChoice) {
  // `system` removes the attribute so the prefers-color-scheme rules in theme.css decide.
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}

function initial(): ThemeChoice {
  const saved = typeof localStorage !== 'undefined' ? localStorage.getItem(KEY) : null;
  return saved === 'light' || saved === 'dark' ? saved : 'system';
}

interface ThemeState {
  choice: ThemeChoice;
  set(choice: ThemeChoice): void;
  cycle(): void;
}

export const useTheme = create<ThemeState>((set, get) => ({
  choice: initial(),
  set(choice) {
    localStorage.setItem(KEY, choice);
    apply(choice);
    set({ choice });
  },
  cycle() {
    const order: ThemeChoice[] = ['system', 'light', 'dark'];
    get().set(order[(order.indexOf(get().choice) + 1) % order.length]);
  },
}));

if (typeof document !== 'undefined') apply(initial());
