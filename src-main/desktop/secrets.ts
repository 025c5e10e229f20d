import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { safeStorage, type SafeStorage } from 'electron';
import { plainBox, UNREADABLE_SECRET, type SecretBox } from '../platform/kernel/secrets.js';

const PREFIX = 'safe:';
/** The data key, sealed by the keychain, beside the database (user-only, like the data dir). */
export const DATA_KEY_FILE = 'secrets.key';

type Keychain = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'>;

/** Whether safeStorage really encrypts: Linux without a keyring falls back to a hard-coded key ("basic_text"). */
export function keychainEncrypts(ss: Keychain = safeStorage, platform = process.platform): boolean {
  return ss.isEncryptionAvailable() && !(platform === 'linux' && ss.getSelectedStorageBackend() === 'basic_text');
}

/**
 * The key the platform process seals secrets with (kernel/secrets.ts dataKeyBox), kept in the
 * data dir sealed by the OS keychain (Keychain, DPAPI, libsecret/kwallet): the keychain is the
 * main process's, the sealing the platform's own, so its synchronous seal/open stay synchronous
 * and no secret crosses between the processes per use. Made on first use; one the keychain can
 * no longer open (it changed) is set aside and replaced, and the secrets under it must be entered
 * again, as before. Null when the keychain does not really encrypt: secrets are then stored
 * plainly and Settings says so rather than pretend. Must run after the app is ready.
 */
export function loadDataKey(dataDir: string, ss: Keychain = safeStorage, platform = process.platform): Buffer | null {
  if (!keychainEncrypts(ss, platform)) return null;
  const file = path.join(dataDir, DATA_KEY_FILE);
  let sealed: string | null = null;
  try {
    sealed = fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (sealed?.startsWith(PREFIX)) {
    try {
      const key = Buffer.from(ss.decryptString(Buffer.from(sealed.slice(PREFIX.length), 'base64')), 'base64');
      if (key.length === 32) return key;
    } catch {}
  }
  if (sealed !== null) fs.renameSync(file, `${file}.unreadable-${Date.now()}`);
  const key = crypto.randomBytes(32);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    fs.writeSync(fd, PREFIX + ss.encryptString(key.toString('base64')).toString('base64'));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  return key;
}

/**
 * Opens secrets an older Agent Desk sealed directly with safeStorage (`safe:...`), for the
 * platform process at its start; one that cannot be opened is null (Settings asks for it again).
 */
export function openLegacySecrets(sealed: unknown, ss: Keychain = safeStorage, platform = process.platform): (string | null)[] {
  if (!Array.isArray(sealed)) return [];
  const box = safeStorageBox(ss, platform);
  return sealed.map((s) => {
    if (typeof s !== 'string' || !s.startsWith(PREFIX)) return null;
    try {
      return box.open(s);
    } catch {
      return null;
    }
  });
}

/**
 * Secrets sealed with the OS keychain directly, as Agent Desk did while the platform ran in the
 * main process: still what opens those. Must be used after the app is ready.
 */
export function safeStorageBox(ss: Keychain = safeStorage, platform = process.platform): SecretBox {
  const encrypted = () => keychainEncrypts(ss, platform);
  return {
    get encrypted() {
      return encrypted();
    },
    seal(plain) {
      return encrypted() ? PREFIX + ss.encryptString(plain).toString('base64') : plainBox.seal(plain);
    },
    open(sealed) {
      if (!sealed.startsWith(PREFIX)) return plainBox.open(sealed);
      try {
        return ss.decryptString(Buffer.from(sealed.slice(PREFIX.length), 'base64'));
      } catch {
        throw new Error(UNREADABLE_SECRET);
      }
    },
  };
}
