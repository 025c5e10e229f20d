import crypto from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): HMAC-SHA256 over
 * `${id}.${timestamp}.${body}`, keyed with the base64-decoded part of the secret after `whsec_`.
 */
export function signatureOf(secret: string, messageId: string, timestampSec: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  const mac = crypto.createHmac('sha256', key).update(`${messageId}.${timestampSec}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The headers that carry one signed attempt; the timestamp is the attempt's, so late retries still verify. */
export function signedHeaders(secret: string, messageId: string, body: string, nowMs = Date.now()): Record<string, string> {
  const ts = Math.floor(nowMs / 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(ts),
    'webhook-signature': signatureOf(secret, messageId, ts, body),
  };
}

/** An event's id, stable across its retries: `msg_` + 24 random bytes, base64url. */
export const newMessageId = (): string => `msg_${crypto.randomBytes(18).toString('base64url')}`;
