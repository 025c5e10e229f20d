/**
 * The words and rules of the chat's composer and session list, as pure functions with `now` and
 * limits passed in: options and tools in words (never raw values), when text is too long to send
 * (and when a paste becomes a file), which attachments hold Send back, relative dates and numbers
 * for repeated titles, and how a refused tool step reads.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../src-renderer/api', () => ({ api: { transport: 'http' }, ApiError: class extends Error {}, messageOf: (e: unknown) => String(e) }));

const { answerWords, optionWords, questionLabel, toolsSummary, webToolWords } = await import('../../src-renderer/features/chat/option-words');
const { checkInput, fitChars, inputLimits, pasteAsFile, pastedName } = await import('../../src-renderer/features/chat/long-input');
const { relativeDate, titleNumbers } = await import('../../src-renderer/features/chat/session-dates');
const { attachmentBlock, imageNote, sendable } = await import('../../src-renderer/stores/attachments');
const { refusal, whereOf } = await import('../../src-renderer/features/chat/tool-words');
type Attachment = import('../../src-renderer/stores/attachments').Attachment;

const tools = { name: 'tools', type: 'select' as const };

describe('options and tools in words', () => {
  it('never shows the raw values: no-tools, internet, site names, question names', () => {
    expect(webToolWords('no-tools')).toBe('No web search');
    expect(webToolWords('internet')).toBe('Web search');
    expect(webToolWords('stackoverflow')).toBe('Search Stack Overflow');
    expect(webToolWords('my_docs')).toBe('Search My docs');
    expect(optionWords(tools, 'hackernews')).toBe('Search Hacker News');
    expect(optionWords({ name: 'length', type: 'select' }, 'short')).toBe('short');
    expect(questionLabel({ name: 'max_length' })).toBe('Max length');
    expect(questionLabel({ name: 'tools' })).toBe('Web search');
    expect(answerWords({ name: 'flag', type: 'boolean' }, true)).toBe('On');
    expect(answerWords({ name: 'temperature', type: 'select' }, '0.5')).toBe('0.5');
    expect(answerWords({ name: 'topic', type: 'string' }, '')).toBeNull();
  });

  it('sums web search and the agent\'s own tools as one Tools list; "No tools" when there is none', () => {
    expect(toolsSummary('no-tools', [])).toBe('No tools');
    expect(toolsSummary(undefined, [])).toBe('No tools');
    expect(toolsSummary('internet', ['files'])).toBe('Web search, files');
    expect(toolsSummary('no-tools', ['files', 'github'])).toBe('files, github');
    expect(toolsSummary('wikipedia', [])).toBe('Wikipedia search');
  });
});

describe('long input', () => {
  const chat = inputLimits(true, 'gpt-4o-mini', null);
  it('a chat message holds 1,000,000 characters; over it Send is off with a sentence saying what to do', () => {
    expect(checkInput(999_999, chat)).toEqual({ block: null, counter: '999,999 / 1,000,000 characters' });
    expect(checkInput(799_999, chat).counter).toBeNull();
    const over = checkInput(1_100_000, chat);
    expect(over.block).toBe('This message has 1,100,000 characters; a message holds at most 1,000,000. Attach it as a file instead: the model then reads the parts that matter.');
    expect(over.counter).toBe('1,100,000 / 1,000,000 characters');
  });

  it("another agent's text answer holds 200,000; the model's window (by estimate) counts when known", () => {
    expect(fitChars(inputLimits(false, null, null))).toBe(200_000);
    const small = inputLimits(true, 'llama-3.1-8b', 8192);
    expect(fitChars(small)).toBe(32_768);
    expect(checkInput(32_768, small).block).toBeNull();
    expect(checkInput(40_000, small).block).toBe('This message is about 10,000 tokens, more than llama-3.1-8b reads at once (8,192). Attach it as a file instead: the model then reads the parts that matter.');
  });

  it('a paste that would not fit becomes a file, named in order; one that fits stays text', () => {
    expect(pasteAsFile(1_100_000, 0, chat)).toBe(true);
    expect(pasteAsFile(600_000, 500_000, chat)).toBe(true);
    expect(pasteAsFile(600_000, 0, chat)).toBe(false);
    expect(pasteAsFile(0, 2_000_000, chat)).toBe(false);
    expect(pastedName(1)).toBe('Pasted text 1.txt');
  });
});

describe('attachments and Send', () => {
  const a = (p: Partial<Attachment>): Attachment => ({ key: 'k', name: 'a.txt', size: 10, image: false, fileId: 1, phase: 'ready', sent: 10, indeterminate: false, readingSince: null, ...p });
  it('an image being read never holds Send back, and goes with the message; a document being read does', () => {
    const photo = a({ name: 'photo.png', image: true, phase: 'processing' });
    expect(attachmentBlock([photo])).toBeNull();
    expect(sendable(photo)).toBe(true);
    expect(imageNote([photo])).toBe('"photo.png" is still being read. You can send now: the model gets the text in the image once it is read, from your next message on.');
    expect(attachmentBlock([a({ phase: 'processing' })])).toBe('Waiting for "a.txt" to be read, so the model gets its text…');
    expect(imageNote([a({})])).toBeNull();
  });

  it('a file without an id yet (bytes going) waits; a failed one says why and how to go on', () => {
    expect(attachmentBlock([a({ name: 'photo.png', image: true, phase: 'processing', fileId: null })])).toBe('Waiting for "photo.png" to be uploaded…');
    expect(sendable(a({ image: true, phase: 'processing', fileId: null }))).toBe(false);
    expect(attachmentBlock([a({ name: 'x.exe', phase: 'failed', fileId: null, error: 'Agent Desk cannot read this type.' })])).toBe('"x.exe" could not be attached: Agent Desk cannot read this type. Remove it to send.');
  });
});

describe('session dates and repeated titles', () => {
  const now = new Date(2026, 2, 10, 15, 0, 0).getTime();
  const at = (d: Date) => d.toISOString();
  it('says when, as chat apps do', () => {
    expect(relativeDate(at(new Date(now - 20_000)), now, 'en-US')).toBe('Just now');
    expect(relativeDate(at(new Date(now - 2 * 60_000)), now, 'en-US')).toBe('2 min ago');
    expect(relativeDate(at(new Date(now - 3 * 3600_000)), now, 'en-US')).toBe('3 h ago');
    expect(relativeDate(at(new Date(2026, 2, 9, 23, 0)), now, 'en-US')).toBe('Yesterday');
    expect(relativeDate(at(new Date(2026, 2, 6, 12, 0)), now, 'en-US')).toBe('Friday');
    expect(relativeDate(at(new Date(2026, 2, 3, 12, 0)), now, 'en-US')).toBe('Mar 3');
    expect(relativeDate(at(new Date(2025, 11, 24, 12, 0)), now, 'en-US')).toBe('Dec 24, 2025');
  });

  it('numbers the sessions that share a title, oldest first; a title of its own gets none', () => {
    const n = titleNumbers([
      { id: 9, title: 'Plan the trip', created_at: '2026-03-10T10:00:00Z' },
      { id: 4, title: 'Other', created_at: '2026-03-09T10:00:00Z' },
      { id: 3, title: 'plan the trip ', created_at: '2026-03-09T10:00:00Z' },
    ]);
    expect([...n.entries()].sort()).toEqual([
      [3, 1],
      [9, 2],
    ]);
  });
});

describe('a refused tool step', () => {
  it('reads as not available (no such tool) or not allowed (web search off), never "a removed server"', () => {
    expect(refusal({ status: 'denied', server_id: null, server: null })?.label).toBe('Not available to this agent');
    expect(refusal({ status: 'denied', server_id: null, server: 'the web' })?.label).toBe('Not allowed in this answer');
    expect(whereOf({ server_id: null, server: null })).toBeNull();
    expect(whereOf({ server_id: null, server: 'the web' })).toBe('on the web');
    // Denied by the person, or a client's tool: not a refusal.
    expect(refusal({ status: 'denied', server_id: 3, server: 'files' })).toBeNull();
    expect(refusal({ status: 'denied', server_id: null, server: 'client' })).toBeNull();
    expect(whereOf({ server_id: 3, server: null })).toBe('on a removed server');
  });
});
