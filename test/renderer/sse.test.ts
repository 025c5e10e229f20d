import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createSseParser, type SseEvent } from '../../src-renderer/api/sse';

function parseAll(chunks: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const p = createSseParser((e) => events.push(e));
  for (const c of chunks) p.feed(c);
  p.end();
  return events;
}

describe('SSE parser', () => {
  it('reads data lines separated by blank lines', () => {
    expect(parseAll(['data: {"a":1}\n\ndata: {"a":2}\n\n'])).toEqual([
      { event: 'message', data: '{"a":1}', id: undefined },
      { event: 'message', data: '{"a":2}', id: undefined },
    ]);
  });

  it('joins multi-line data, keeps event and id, skips comments, strips one leading space only', () => {
    expect(parseAll([': keep-alive\n', 'event: update\nid: 7\ndata:  two spaces\ndata:x\n\n'])).toEqual([{ event: 'update', data: ' two spaces\nx', id: '7' }]);
  });

  it('handles CRLF and CR line ends, even when a CRLF is split between chunks', () => {
    expect(parseAll(['data: a\r', '\n\r', '\ndata: b\r\r'])).toEqual([
      { event: 'message', data: 'a', id: undefined },
      { event: 'message', data: 'b', id: undefined },
    ]);
  });

  it('drops an event that never ended and a leading BOM', () => {
    expect(parseAll(['\uFEFFdata: one\n\ndata: half'])).toEqual([{ event: 'message', data: 'one', id: undefined }]);
  });

  it('gives the same events however the stream is cut', () => {
    const payloads = ['{"id":1,"status":"running","output":"Hel"}', '{"id":1,"status":"running","output":"lo\\nworld"}', '{"id":1,"status":"completed","output":""}'];
    const text = payloads.map((p) => `data: ${p}\r\n\r\n`).join('');
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks: string[] = [];
        let prev = 0;
        for (const c of points) {
          chunks.push(text.slice(prev, c));
          prev = c;
        }
        chunks.push(text.slice(prev));
        expect(parseAll(chunks).map((e) => e.data)).toEqual(payloads);
      }),
      { numRuns: 200 },
    );
  });
});
