import { describe, expect, it } from 'vitest';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { signatureOf, signedHeaders, newMessageId } from '../../src-main/platform/modules/webhooks/signing.js';
import { newSecret } from '../../src-main/platform/modules/webhooks/service.js';
import { backoff, deliverySettings, DEFAULT_RETRY_DELAYS_MS, DEFAULT_TIMEOUT_MS } from '../../src-main/platform/modules/webhooks/retry-schedule.js';

describe('Standard Webhooks signing', () => {
  it('matches the standardwebhooks package, which verifies it', () => {
    const secret = newSecret();
    const body = JSON.stringify({ type: 'execution.succeeded', timestamp: '2026-01-01T00:00:00.000000Z', data: { output: 'é ✓' } });
    const id = newMessageId();
    const now = Date.now();
    const headers = signedHeaders(secret, id, body, now);
    const wh = new StandardWebhook(secret);
    expect(headers['webhook-signature']).toBe(wh.sign(id, new Date(Math.floor(now / 1000) * 1000), body));
    expect(wh.verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => wh.verify(body + ' ', headers)).toThrow();
    expect(() => new StandardWebhook(newSecret()).verify(body, headers)).toThrow();
  });

  it('signs id.timestamp.body with the base64-decoded key', () => {
    // A fixed key and timestamp, against the package's own sign().
    const secret = `whsec_${Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString('base64')}`;
    const expected = new StandardWebhook(secret).sign('msg_1', new Date(1_700_000_000_000), '{}');
    expect(signatureOf(secret, 'msg_1', 1_700_000_000, '{}')).toBe(expected);
    expect(expected).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('makes distinct msg_ ids', () => {
    const ids = new Set(Array.from({ length: 1000 }, newMessageId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^msg_[A-Za-z0-9_-]{24}$/);
  });
});

describe('retry schedule', () => {
  it('meets the contract by default: a first retry within 10 s, at least 5 attempts over at least an hour', () => {
    const s = deliverySettings({});
    expect(s.timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
    expect(s.timeoutMs).toBe(10_000);
    expect(s.retryDelaysMs).toEqual(DEFAULT_RETRY_DELAYS_MS);
    expect(s.retryDelaysMs.length + 1).toBeGreaterThanOrEqual(5);
    // Worst case of the jitter: the first retry comes early enough, the schedule spans long enough.
    expect(backoff(s.retryDelaysMs, 1, () => 1)).toBeLessThanOrEqual(10_000);
    const shortest = s.retryDelaysMs.reduce((sum, _, i) => sum + backoff(s.retryDelaysMs, i + 1, () => 0), 0);
    expect(shortest).toBeGreaterThanOrEqual(3_600_000);
    // Exponential-ish: each delay longer than the previous.
    for (let i = 1; i < s.retryDelaysMs.length; i++) expect(s.retryDelaysMs[i]).toBeGreaterThan(s.retryDelaysMs[i - 1]);
  });

  it('jitters each delay within ±20 % of its base (README, "Webhooks"), using the whole range', () => {
    // Bounds from the documented schedule, not from the source's constant.
    const SPREAD = 0.2;
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let n = 1; n <= DEFAULT_RETRY_DELAYS_MS.length; n++) {
      const base = DEFAULT_RETRY_DELAYS_MS[n - 1];
      const seen = Array.from({ length: 500 }, () => backoff(DEFAULT_RETRY_DELAYS_MS, n, random));
      for (const d of seen) {
        expect(d).toBeGreaterThanOrEqual(Math.floor(base * (1 - SPREAD)));
        expect(d).toBeLessThanOrEqual(Math.ceil(base * (1 + SPREAD)));
      }
      // Jitter that never moves is no jitter: the draws spread over most of the band on both sides.
      expect(Math.min(...seen)).toBeLessThan(base * (1 - SPREAD / 2));
      expect(Math.max(...seen)).toBeGreaterThan(base * (1 + SPREAD / 2));
    }
    // Past the end of the list, the last delay repeats.
    const last = backoff([10_000, 20_000], 9, random);
    expect(last).toBeGreaterThanOrEqual(16_000);
    expect(last).toBeLessThanOrEqual(24_000);
  });

  it('reads env overrides and falls back on malformed ones', () => {
    expect(deliverySettings({ AGENT_DESK_WEBHOOK_TIMEOUT_MS: '250', AGENT_DESK_WEBHOOK_RETRY_DELAYS_MS: '10, 20,30' })).toEqual({ timeoutMs: 250, retryDelaysMs: [10, 20, 30] });
    expect(deliverySettings({ AGENT_DESK_WEBHOOK_TIMEOUT_MS: 'soon', AGENT_DESK_WEBHOOK_RETRY_DELAYS_MS: '10,x' })).toEqual({
      timeoutMs: DEFAULT_TIMEOUT_MS,
      retryDelaysMs: DEFAULT_RETRY_DELAYS_MS,
    });
    expect(deliverySettings({ AGENT_DESK_WEBHOOK_TIMEOUT_MS: '-5' }).timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
  });
});
