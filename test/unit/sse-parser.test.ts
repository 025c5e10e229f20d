/**
 * The tests read streams with the one SSE parser (eventsource-parser) and hold the platform's
 * bodies to its framing: CONTRACT.md "Execution" — each event is one `data: <execution object
 * without input>` line and a blank line (the re-attach stream adds an `id:` line first).
 */
import { describe, expect, it } from 'vitest';
import { parseSse } from '../fixtures/sse-framing.js';
import { readSSE } from '../fixtures/sse-reader.js';
import { parseSSE } from '../execution/helpers.js';

const body = (chunks: string[]) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const s of chunks) c.enqueue(new TextEncoder().encode(s));
        c.close();
      },
    }),
  );

describe('the platform framing', () => {
  it('reads the execute stream: data lines, each followed by a blank line', () => {
    const text = 'data: {"status":"running","output":"Hel"}\n\ndata: {"status":"completed","output":""}\n\n';
    expect(parseSse(text, { framing: 'data' }).map((e) => e.data)).toEqual(['{"status":"running","output":"Hel"}', '{"status":"completed","output":""}']);
    expect(parseSSE(text).map((e) => e.status)).toEqual(['running', 'completed']);
  });

  it('reads the re-attach stream: an id line, then the data line', () => {
    expect(parseSse('id: 3\ndata: {"a":1}\n\nid: 5\ndata: {"a":2}\n\n', { framing: 'id-data' }).map((e) => [e.id, e.data])).toEqual([
      ['3', '{"a":1}'],
      ['5', '{"a":2}'],
    ]);
  });

  it('refuses anything else', () => {
    const bad = [
      'id: 1\ndata: {}\n\n', // an id line on the execute stream
      ': ping\n\ndata: {}\n\n', // a comment
      'event: update\ndata: {}\n\n', // a named event
      'data: {\ndata: }\n\n', // two data lines
      'data:{}\n\n', // no space after the colon
      'data: {}\n\n\n', // a blank line with no event
      'data: {}\n\ndata: {}', // ends inside an event
    ];
    for (const text of bad) {
      expect(() => parseSse(text, { framing: 'data' }), JSON.stringify(text)).toThrow(/Bad SSE framing/);
      expect(() => parseSSE(text), JSON.stringify(text)).toThrow(/Bad SSE framing/);
    }
    expect(() => parseSse('data: {}\n\n', { framing: 'id-data' })).toThrow(/Bad SSE framing/);
  });

  it('without framing, the HTML rules: a comment, a name, an id and an unterminated end are taken in stride', () => {
    expect(parseSse(': ping\n\nevent: update\nid: 7\ndata: a\ndata: b\n\ndata: half').map((e) => [e.event, e.id, e.data])).toEqual([['update', '7', 'a\nb']]);
  });
});

describe('the HTTP fixture', () => {
  it('the HTTP fixture reads every event whatever its lines and however the body is cut', async () => {
    const seen: string[] = [];
    await readSSE(body(['id: 1\r', '\ndata: one\r\n\r', '\nevent: x\ndata: two\n', '\n']), (d) => seen.push(d));
    expect(seen).toEqual(['one', 'two']);
  });

  it('the HTTP fixture, strict, holds the body to the execute framing', async () => {
    const seen: string[] = [];
    await readSSE(body(['data: {"a"', ':1}\n', '\ndata: [DONE]\n\n']), (d) => seen.push(d), { strict: true });
    expect(seen).toEqual(['{"a":1}', '[DONE]']);
    await expect(readSSE(body(['data: {}\n\n: ping\n\n']), () => {}, { strict: true })).rejects.toThrow(/Bad SSE framing/);
    await expect(readSSE(body(['data: {}\n\ndata: {}\n']), () => {}, { strict: true })).rejects.toThrow(/Bad SSE framing/);
  });
});
