import { describe, expect, it } from 'vitest';
import { outcomeOf, statusText } from '../../src-renderer/features/webhooks/outcome';

/** What "Send test" and a delivery's attempts say: the receiver's answer, a failure never reads as sent. */
describe('webhook outcome in words', () => {
  it('a 2xx is sent, naming the answer', () => {
    expect(outcomeOf({ status_code: 200, error: null })).toEqual({ ok: true, text: 'Webhook sent: the receiver answered 200 OK.' });
    expect(outcomeOf({ status_code: 204, error: null }).ok).toBe(true);
  });

  it('any other status is a failure with its reason phrase', () => {
    expect(outcomeOf({ status_code: 500, error: 'HTTP 500' })).toEqual({ ok: false, text: 'The receiver answered 500 Internal Server Error.' });
    expect(outcomeOf({ status_code: 418, error: 'HTTP 418' })).toEqual({ ok: false, text: 'The receiver answered 418.' });
    expect(outcomeOf({ status_code: 301, error: 'Redirect (301) not followed' }).text).toBe('The receiver answered 301 Moved Permanently: redirects are not followed. Use the address it redirects to.');
  });

  it('no answer says the receiver could not be reached, and why', () => {
    expect(outcomeOf({ status_code: null, error: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9' })).toEqual({
      ok: false,
      text: 'The receiver could not be reached: nothing is listening at that address. Check that it runs and the URL is right.',
    });
    expect(outcomeOf({ status_code: null, error: 'Timed out after 10000 ms' }).text).toBe('The receiver did not answer within 10 seconds.');
    expect(outcomeOf({ status_code: null, error: 'getaddrinfo ENOTFOUND hooks.example' }).text).toBe('The receiver could not be reached: its host name was not found. Check the URL.');
    expect(outcomeOf({ status_code: null, error: null }).text).toBe('The receiver could not be reached.');
  });

  it('names common statuses', () => {
    expect(statusText(502)).toBe('502 Bad Gateway');
    expect(statusText(299)).toBe('299');
  });
});
