import { safeStorage, type SafeStorage } from 'electron';
import { plainBox, type SecretBox } from '../platform/kernel/secrets.js';

const PREFIX = 'safe:';

/**
 * Provider and remote secrets sealed with the OS keychain through Electron's safeStorage
 * (Keychain, DPAPI, libsecret/kwallet). Linux without a keyring falls back to Chromium's
 * hard-coded "basic_text" key, which protects nothing: we then store plainly and say so
 * (Settings shows `secrets_encrypted: false`) rather than pretend.
 * Must be used after the app is ready (safeStorage is unavailable before).
 */
export function safeStorageBox(ss: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'> = safeStorage, platform = process.platform): SecretBox {
  const encrypted = () => ss.isEncryptionAvailable() && !(platform === 'linux' && ss.getSelectedStorageBackend() === 'basic_text');
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
        throw new Error('A stored secret could not be decrypted (the system keychain changed). Enter it again in Settings.');
      }
    },
  };
}
