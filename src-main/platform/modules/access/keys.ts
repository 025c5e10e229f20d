import crypto from 'node:crypto';
import type { ServiceContext } from '../../kernel/context.js';
import { NotFoundError, ValidationError } from '../../kernel/errors.js';
import { DEFAULT_USER_ID } from '../../kernel/context.js';
import { nowMicros, isoMicros } from '../../kernel/time.js';
import { statements } from '../../db/statements.js';

export interface ApiKeyInfo {
  id: number;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

interface KeyRow {
  id: number;
  user_id: number;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** Keys are 256-bit random strings, so one SHA-256 is a sound storage hash (no slow KDF needed). */
export function hashKey(key: string): string {
  return crypto.createHash('sha256').update(key, 'utf8').digest('hex');
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

/** API keys: only a hash is stored; the key itself is shown once, at creation. */
export class KeysService {
  private readonly byHash;
  private readonly touch;
  private readonly envHash: Buffer | null;
  private lastTouch = new Map<number, number>();

  /** Statements compiled on first use, then reused. */
  private readonly sql: ReturnType<typeof statements>;

  constructor(private readonly ctx: ServiceContext) {
    this.sql = statements(ctx.db);
    this.byHash = ctx.db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL');
    this.touch = ctx.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
    this.envHash = ctx.config.envApiKey ? Buffer.from(hashKey(ctx.config.envApiKey), 'hex') : null;
  }

  create(userId: number, name: string): { key: string; info: ApiKeyInfo } {
    const clean = name.trim();
    if (!clean || clean.length > 100) throw ValidationError.field('name', 'The name field must be between 1 and 100 characters.');
    const key = `ad_${crypto.randomBytes(32).toString('base64url')}`;
    const now = nowMicros();
    const id = Number(
      this.sql('INSERT INTO api_keys(user_id, name, prefix, key_hash, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(userId, clean, key.slice(0, 10), hashKey(key), now).lastInsertRowid,
    );
    return { key, info: this.get(userId, id) };
  }

  get(userId: number, id: number): ApiKeyInfo {
    const row = this.sql<[number, number], KeyRow>('SELECT * FROM api_keys WHERE id = ? AND user_id = ?').get(id, userId);
    if (!row) throw new NotFoundError('API key not found');
    return toInfo(row);
  }

  list(userId: number): ApiKeyInfo[] {
    return this.sql<[number], KeyRow>('SELECT * FROM api_keys WHERE user_id = ? ORDER BY id DESC').all(userId).map(toInfo);
  }

  revoke(userId: number, id: number): ApiKeyInfo {
    const res = this.sql('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL').run(nowMicros(), id, userId);
    if (!res.changes) this.get(userId, id); // 404 when it does not exist; already revoked is fine
    return this.get(userId, id);
  }

  /** The user a presented key belongs to, or null. Hash lookup, then a constant-time compare. */
  verify(presented: string): number | null {
    if (!presented || presented.length > 512) return null;
    const digest = Buffer.from(hashKey(presented), 'hex');
    if (this.envHash && crypto.timingSafeEqual(digest, this.envHash)) return DEFAULT_USER_ID;
    const row = this.byHash.get(digest.toString('hex'));
    if (!row || !crypto.timingSafeEqual(digest, Buffer.from(row.key_hash, 'hex'))) return null;
    // last_used_at at minute resolution: no write per request.
    const now = nowMicros();
    if (now - (this.lastTouch.get(row.id) ?? 0) > 60_000_000) {
      this.lastTouch.set(row.id, now);
      this.touch.run(now, row.id);
    }
    return row.user_id;
  }
}
