/**
 * Encrypts provider and remote secrets at rest. Headless, secrets are stored as given in the
 * user-only data dir; the desktop app passes an Electron safeStorage box instead.
 */
export interface SecretBox {
  /** Whether the box really encrypts (shown in Settings). */
  readonly encrypted: boolean;
  seal(plain: string): string;
  open(sealed: string): string;
}

export const plainBox: SecretBox = {
  encrypted: false,
  seal: (s) => `plain:${s}`,
  open: (s) => (s.startsWith('plain:') ? s.slice(6) : s),
};
