import { describe, expect, it } from 'vitest';
import { ApiError, messageOf } from '../../src-renderer/api/errors';
import { fileTypesSentence, cronSentence, providerSentence, sentenceOf, wordErrors } from '../../src-renderer/api/field-errors';
import { providerFormField } from '../../src-renderer/features/settings/providers';
import { cronProblem } from '../../src-renderer/features/schedules/describe';

const unprocessable = (errors: Record<string, string[]>) => new ApiError(422, Object.values(errors)[0][0], errors);
/** What people must never read: field paths, class names, HTTP codes alone. */
const JARGON = /providers\.\d|\w+\.\d+\.\w+|CronPattern|Error:|HTTP \d{3}|ECONNREFUSED|api_key|base_url/;

describe('the one place that words refusals', () => {
  it('puts a 422 under the fields the form shows, in plain words, and the rest in the general sentence', () => {
    const err = unprocessable({ 'providers.1.base_url': ['The providers.1.base url field must be a valid URL.'], 'providers.0.kind': ['The selected providers.0.kind is invalid.'] });
    const w = wordErrors(err, { fields: { base_url: 'base URL', api_key: 'API key' }, field: providerFormField });
    expect(w.fields).toEqual({ base_url: "That address isn't a web address. It should start with http:// or https://." });
    expect(w.general).toBe('Pick one of the offered choices for kind.');
    for (const s of [...Object.values(w.fields), w.general!]) expect(s).not.toMatch(JARGON);
  });

  it('words the provider rules: an empty address, a key to enter again, a whole-list refusal', () => {
    const empty = wordErrors(unprocessable({ 'providers.2.base_url': ['The base url field is required for the OpenAI-compatible provider "lm".'] }), { fields: { base_url: 'base URL' }, field: providerFormField });
    expect(empty.fields.base_url).toBe("Type the server's address, e.g. http://localhost:1234/v1.");
    const again = wordErrors(unprocessable({ 'providers.0.base_url': ['To change the base URL of the provider "x", enter its API key again: a stored key is only sent to the address it was entered for.'] }), { fields: { base_url: 'base URL' }, field: providerFormField });
    expect(again.fields.base_url).toMatch(/^Enter the API key again/);
    const gguf = wordErrors(unprocessable({ providers: ['The models_dir field is required for the GGUF provider "local".'] }), { fields: { models_dir: 'models folder' }, field: providerFormField });
    expect(gguf.fields.models_dir).toBe('Choose the folder that holds the GGUF files.');
  });

  it('says which files Agent Desk reads instead of sixty extensions', () => {
    const list = Array.from({ length: 60 }, (_, i) => `ext${i}`).join(', ');
    const err = unprocessable({ file: [`The file field must be a file of type: ${list}.`] });
    expect(sentenceOf(err)).toBe(`${fileTypesSentence()} This file's type is not one of them.`);
    expect(messageOf(err)).toBe(sentenceOf(err));
    // Any other long list reads as its first few.
    expect(sentenceOf(unprocessable({ x: [`Use one of: ${list}.`] }))).toBe('Use one of: ext0, ext1, ext2 and others.');
  });

  it('words an unreachable server in one sentence', () => {
    const raw = 'Could not reach Server at 127.0.0.1:9 at http://127.0.0.1:9 (ECONNREFUSED).';
    expect(providerSentence(raw)).toBe('Nothing answered at 127.0.0.1:9. Start the server there, or check the address.');
    expect(messageOf(new Error(raw))).toBe(providerSentence(raw));
    expect(providerSentence('Could not reach the provider at http://nowhere.invalid (ENOTFOUND).')).toBe('No server named nowhere.invalid was found. Check the address for typos.');
    expect(providerSentence('LM answered 401: invalid key')).toBe('The server refused the API key. Check the key, then try again.');
    expect(providerSentence('No answer within 8 s.')).not.toMatch(JARGON);
  });

  it('words cron errors of the parser and of the platform', () => {
    expect(cronProblem('61 9 * * *', 'UTC')).toBe('Minute 61 does not exist: use 0 to 59.');
    expect(cronProblem('9 * *', 'UTC')).toMatch(/^A cron expression has five parts/);
    expect(cronProblem('a b c d e', 'UTC')).toMatch(/^Use only numbers/);
    expect(cronSentence("CronPattern: invalid configuration format ('x'), exactly five or six space separated parts are required.")).not.toMatch(JARGON);
    const w = wordErrors(unprocessable({ cron: ['The cron field must be a valid cron expression (e.g. "0 9 * * 1-5").'] }), { fields: { cron: 'cron expression' } });
    expect(w.fields.cron).toMatch(/isn't a cron expression the scheduler understands/);
  });

  it('a failure that is not a refusal reads as one sentence, never a status code alone', () => {
    expect(sentenceOf(new ApiError(500, 'Internal error', undefined))).toMatch(/^Something went wrong inside Agent Desk/);
    expect(sentenceOf(new ApiError(404, 'Agent not found'))).toBe('Agent not found');
    expect(sentenceOf(new TypeError('Failed to fetch'))).toMatch(/could not be reached/);
    expect(wordErrors(null)).toEqual({ general: null, fields: {} });
  });
});
