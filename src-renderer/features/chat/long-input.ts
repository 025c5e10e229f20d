import { MAX_MESSAGE_CHARS } from '../../../src-main/platform/kernel/message-limits';
import { formatNumber } from '../../components/format';
import { t } from '../../i18n';

/**
 * How long a message the composer sends as text: the API takes at most 1,000,000 characters in a
 * chat message (200,000 in another agent's text answer), and the model reads at most its context
 * window. Longer text goes as a file (a pasted one becomes "Pasted text 1.txt" at once), whose best
 * passages the model gets; a message that can only fail is never sent.
 */

/** The platform's cap on a text answer of an agent that is not a chat (the composer fills its main question). */
export const ANSWER_MAX_CHARS = 200_000;
/** Characters per token, for an estimate (English prose averages about four). */
export const CHARS_PER_TOKEN = 4;
/** The counter shows from this share of the limit on. */
const COUNTER_FROM = 0.8;

export interface InputLimits {
  /** what the API takes */
  maxChars: number;
  /** the model's context window in tokens, when the app knows the model */
  contextTokens: number | null;
  model: string | null;
}

export function inputLimits(isChat: boolean, model: string | null, contextTokens: number | null): InputLimits {
  return { maxChars: isChat ? MAX_MESSAGE_CHARS : ANSWER_MAX_CHARS, contextTokens: contextTokens && contextTokens > 0 ? contextTokens : null, model };
}

/** The most characters that fit both the API and (by estimate) the model. */
export function fitChars(l: InputLimits): number {
  return Math.min(l.maxChars, l.contextTokens ? l.contextTokens * CHARS_PER_TOKEN : Infinity);
}

const n = (x: number) => formatNumber(x);

export interface InputCheck {
  /** why the text cannot be sent as it is (and what to do), or null */
  block: string | null;
  /** "812,345 / 1,000,000 characters" near the limit, else null */
  counter: string | null;
}

export function checkInput(length: number, l: InputLimits): InputCheck {
  const fit = fitChars(l);
  const counter = length >= fit * COUNTER_FROM ? t('chat.limits.counter', { length: n(length), fit: n(fit) }) : null;
  if (length > l.maxChars) {
    return { counter, block: t('chat.limits.tooLong', { length: n(length), max: n(l.maxChars) }) };
  }
  if (l.contextTokens && length > l.contextTokens * CHARS_PER_TOKEN) {
    const tokens = Math.ceil(length / CHARS_PER_TOKEN);
    return { counter, block: t('chat.limits.tooManyTokens', { tokens: n(tokens), model: l.model ?? t('chat.limits.theModel'), window: n(l.contextTokens) }) };
  }
  return { counter, block: null };
}

/** A paste that would take the composer past what fits goes in as a file instead. */
export function pasteAsFile(pasted: number, current: number, l: InputLimits): boolean {
  return pasted > 0 && current + pasted > fitChars(l);
}

/** The name of the n-th pasted text of this window: "Pasted text 1.txt". */
export const pastedName = (i: number) => t('chat.limits.pastedName', { n: i });
