import { create } from 'zustand';

/** Set when the platform answers 401: the browser session has expired or was never opened. */
export const useAuth = create<{ signedOut: boolean; markSignedOut(): void }>((set) => ({
  signedOut: false,
  markSignedOut: () => set({ signedOut: true }),
}));
