import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readEvents } from '../../src-renderer/api/sse';
import { ExecutionEvent } from '../../src-main/platform/contract/executions';

/** The renderer reading an execution stream (through eventsource-parser) from a transport that hands it `chunks`. */
async function read(chunks: string[]): Promise<{ events: { status: string; output: string; id?: string }[]; last: { status: string } | null }> {
  const events: { status: string; output: string; id?: string }[] = [];
  const transport = {
    stream: async (_req: unknown, h: { onChunk(t: string): void }) => {
      for (const c of chunks) h.onChunk(c);
      return { status: 200 };
    },
  };
  const last = await readEvents(transport, { method: 'GET', path: '/x' } as never, ExecutionEvent, (e, id) => events.push({ status: e.status, output: e.output, id }));
  return { events, last };
}

const ev = (status: string, output: string) => JSON.stringify({ id: 1, status, output, error: null, credits: null, root_id: 1, template_id: 1, created_at: '2026-01-01T00:00:00.000000Z', updated_at: '2026-01-01T00:00:00.000000Z' });

describe('the renderer reads execution streams with the one SSE parser', () => {
  it('reads data lines, ids, and skips comments and CRLF line ends', async () => {
    const { events, last } = await read([`: keep-alive\r\nid: 3\r\ndata: ${ev('running', 'Hel')}\r\n\r\n`, `data: ${ev('completed', '')}\n\n`]);
    expect(events).toEqual([
      { status: 'running', output: 'Hel', id: '3' },
      // An event names its own id (the re-attach stream gives each one).
      { status: 'completed', output: '', id: undefined },
    ]);
    expect(last?.status).toBe('completed');
  });

  it('gives the same events however the stream is cut', async () => {
    const text = [ev('running', 'Hel'), ev('running', 'lo\nworld'), ev('completed', '')].map((p) => `data: ${p}\r\n\r\n`).join('');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 12 }), async (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks: string[] = [];
        let prev = 0;
        for (const c of points) {
          chunks.push(text.slice(prev, c));
          prev = c;
        }
        chunks.push(text.slice(prev));
        expect((await read(chunks)).events.map((e) => e.output)).toEqual(['Hel', 'lo\nworld', '']);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses an event of another shape', async () => {
    await expect(read(['data: {"nope":1}\n\n'])).rejects.toThrow();
  });
});
