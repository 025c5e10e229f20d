/**
 * Keys are stored hashed (no plaintext anywhere in the database files, WAL included) and
 * compared in constant time. Timing is not measured here (no timed assertions in tests): the
 * test proves the comparison goes through crypto.timingSafeEqual on fixed-length digests,
 * whatever the presented key's length or content.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { call, KEY } from '../api/helpers.js';
import { servePlatform, stop } from './helpers.js';

const p = servePlatform();
afterAll(() => stop(p));

function databaseBytes(dir: string): Buffer {
  return Buffer.concat(
    fs
      .readdirSync(dir)
      .filter((f) => f.startsWith('agent-desk.sqlite'))
      .map((f) => fs.readFileSync(path.join(dir, f))),
  );
}

describe('API keys at rest', () => {
  it('the database holds no plaintext key, only its SHA-256', async () => {
    const made: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      const r = await call(p, 'POST', '/api/keys', { body: { name } });
      expect(r.status).toBe(201);
      made.push(r.json.key);
    }
    // Used keys too (last_used_at is written): still no plaintext.
    for (const k of made) expect((await call(p, 'GET', '/api/agents', { key: k })).status).toBe(200);
    const rows = p.db.prepare('SELECT * FROM api_keys').all() as Record<string, unknown>[];
    expect(rows).toHaveLength(3);
    for (const k of made) {
      const digest = crypto.createHash('sha256').update(k).digest('hex');
      expect(rows.some((r) => r.key_hash === digest)).toBe(true);
      for (const r of rows) for (const v of Object.values(r)) expect(String(v)).not.toContain(k.slice(10));
    }
    p.db.pragma('wal_checkpoint(PASSIVE)');
    const bytes = databaseBytes(p.dir);
    expect(bytes.length).toBeGreaterThan(0);
    for (const k of [...made, KEY]) expect(bytes.includes(Buffer.from(k.slice(10)))).toBe(false);
    // The list shows a prefix, never the key.
    const list = await call(p, 'GET', '/api/keys');
    expect(list.text).not.toContain(made[0].slice(10));
  });

  it('compares keys in constant time: every verdict goes through timingSafeEqual on 32-byte digests', () => {
    const spy = vi.spyOn(crypto, 'timingSafeEqual');
    try {
      const keys = p.services.keys;
      const { key } = keys.create(1, 'ct');
      const probes = [key, `${key.slice(0, -1)}x`, 'a', 'x'.repeat(500), KEY, `${KEY}0`];
      for (const k of probes) {
        spy.mockClear();
        keys.verify(k);
        // At least one constant-time compare, each on equal-length digests (never the raw key).
        expect(spy.mock.calls.length, k.slice(0, 12)).toBeGreaterThan(0);
        for (const [a, b] of spy.mock.calls) {
          expect((a as Buffer).length).toBe(32);
          expect((b as Buffer).length).toBe(32);
        }
      }
    } finally {
      spy.mockRestore();
    }
  });
});
