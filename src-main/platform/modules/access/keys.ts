import crypto from 'node:crypto';
import type { ServiceContext } from '../../kernel/context.js';
import { NotFoundError, ValidationError } from '../../kernel/errors.js';
import { DEFAULT_USER_ID } from '../../kernel/context.js';
import { nowMicros, isoMicros } from '../../kernel/time.js';
import { KeysStore, type KeyRow } from './store.js';
import { say } from '../../contract/messages.js';
import { changeStamp, sameStamp, type Stamp } from '../../db/stamp-store.js';

export interface ApiKeyInfo {
  id: number;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Keys are 256-bit random strings, so one SHA-256 is a sound storage hash (no slow KDF needed). */
export function hashKey(key: string): string {
  return crypto.hash('sha256', key, 'hex');
}

function toInfo(r: KeyRow): ApiKeyInfo {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    created_at: isoMicros(r.created_at),
    last_used_at: r.last_used_at ? isoMicros(r.last_used_at) : null,
    revoked_at: r.revoked_at ? isoMicros(r.revoked_at) : null,
  };
}

/**
 * The digest a key is stored and looked up by (hex); also what stands for a presented key in
 * memory. Hex is hashKey's own form, and crypto.hash answers it a few times faster than a Buffer.
 */
export const keyDigest = (key: string): string => hashKey(key);

/** API keys: only a hash is stored; the key itself is shown once, at creation. */
export class KeysService {
  private readonly store: KeysStore;
  private readonly envHash: Buffer | null;
  private lastTouch = new Map<number, number>();
  private readonly presented = Buffer.alloc(32);
  private readonly stamp: () => Stamp;
  /**
   * Stored keys found by digest, reused while the database is unchanged (its stamp): a client
   * calling in a loop skips the lookup. A key revoked here is refused by the very next request,
   * one revoked by another process (the desktop and serve share the database) within the stamp's
   * recheck time. Digests only: no presented key is kept.
   */
  private readonly found = new Map<string, { row: KeyRow; stamp: Stamp }>();

  constructor(ctx: ServiceContext) {
    this.store = new KeysStore(ctx.db);
    this.envHash = ctx.config.envApiKey ? Buffer.from(hashKey(ctx.config.envApiKey), 'hex') : null;
    this.stamp = changeStamp(ctx.db);
  }

  create(userId: number, name: string): { key: string; info: ApiKeyInfo } {
    const clean = name.trim();
    if (!clean || clean.length > 100) throw ValidationError.field('name', say.must('name', 'be between 1 and 100 characters'));
    const key = `ad_${crypto.randomBytes(32).toString('base64url')}`;
    const id = this.store.insert(userId, clean, key.slice(0, 10), hashKey(key), nowMicros());
    return { key, info: this.get(userId, id) };
  }

  get(userId: number, id: number): ApiKeyInfo {
    const row = this.store.one(userId, id);
    if (!row) throw new NotFoundError('API key not found');
    return toInfo(row);
  }

  list(userId: number): ApiKeyInfo[] {
    return this.store.list(userId).map(toInfo);
  }

  revoke(userId: number, id: number): ApiKeyInfo {
    if (!this.store.revoke(userId, id, nowMicros())) this.get(userId, id); // 404 when it does not exist; already revoked is fine
    return this.get(userId, id);
  }

  /** The user a presented key belongs to, or null. Hash lookup, then a constant-time compare. */
  /** The key's user, or null; `digest` is keyDigest(presented) when the caller has it already. */
  verify(presented: string, digest: string = keyDigest(presented)): number | null {
    if (!presented || presented.length > 512) return null;
    // The presented digest as bytes, in a buffer kept for it (the check is synchronous): no allocation per request.
    const bytes = this.presented;
    if (bytes.write(digest, 'hex') !== bytes.length) return null;
    if (this.envHash && crypto.timingSafeEqual(bytes, this.envHash)) return DEFAULT_USER_ID;
    const row = this.liveByDigest(digest);
    if (!row || !crypto.timingSafeEqual(bytes, Buffer.from(row.key_hash, 'hex'))) return null;
    // last_used_at at minute resolution: no write per request.
    const now = nowMicros();
    if (now - (this.lastTouch.get(row.id) ?? 0) > 60_000_000) {
      this.lastTouch.set(row.id, now);
      this.store.touch(row.id, now);
    }
    return row.user_id;
  }

  private liveByDigest(digest: string): KeyRow | undefined {
    const stamp = this.stamp();
    const hit = this.found.get(digest);
    if (hit && sameStamp(hit.stamp, stamp)) return hit.row;
    const row = this.store.liveByHash(digest);
    if (!row) {
      this.found.delete(digest);
      return undefined;
    }
    if (this.found.size >= 1000) this.found.delete(this.found.keys().next().value!);
    this.found.set(digest, { row, stamp });
    return row;
  }
}
