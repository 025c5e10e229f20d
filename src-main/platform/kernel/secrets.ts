import crypto from 'node:crypto';

/**
 * Encrypts provider and remote secrets at rest. Headless, secrets are stored as given in the
 * user-only data dir; the desktop app's platform process seals with a data key its main process
 * keeps sealed by the OS keychain (dataKeyBox below).
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

/** What a secret that cannot be opened says (the key or the keychain changed). */
export const UNREADABLE_SECRET = 'A stored secret could not be decrypted (the system keychain changed). Enter it again in Settings.';

const KEYED = 'dk1:';
const LEGACY = 'safe:';

/**
 * The desktop app's box in the platform process: AES-256-GCM under a data key that the main
 * process keeps sealed by the OS keychain (safeStorage) and hands over at start. Sealing stays
 * synchronous where the services use it, and no secret crosses to the main process per call.
 * `legacy` holds secrets an older Agent Desk sealed directly with safeStorage, opened by the
 * main process once at start (they are re-sealed with the data key when next saved).
 */
export function dataKeyBox(key: Buffer | null, legacy: ReadonlyMap<string, string> = new Map()): SecretBox {
  if (key && key.length !== 32) throw new Error('The data key must be 32 bytes.');
  return {
    // No key: the keychain does not really encrypt here (Linux without one); stored plainly, and said so.
    encrypted: !!key,
    seal(plain) {
      if (!key) return plainBox.seal(plain);
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return KEYED + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(sealed) {
      if (sealed.startsWith(LEGACY)) {
        const plain = legacy.get(sealed);
        if (plain === undefined) throw new Error(UNREADABLE_SECRET);
        return plain;
      }
      if (!sealed.startsWith(KEYED)) return plainBox.open(sealed);
      if (!key) throw new Error(UNREADABLE_SECRET);
      try {
        const raw = Buffer.from(sealed.slice(KEYED.length), 'base64');
        const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        throw new Error(UNREADABLE_SECRET);
      }
    },
  };
}

/** Secrets an older Agent Desk sealed directly with safeStorage, found in stored text. */
export function legacySealedIn(texts: Iterable<string | null>): string[] {
  const found = new Set<string>();
  for (const t of texts) for (const m of t?.matchAll(/safe:[A-Za-z0-9+/]+={0,2}/g) ?? []) found.add(m[0]);
  return [...found];
}
