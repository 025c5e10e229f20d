import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sseResponse } from '../../src-main/platform/transports/http/sse.js';
import { ROOT, linesWhere, sourcesUnder, type Source } from './sources.js';

/** The one SSE writer; the archive export streams a tar (not events) through a ReadableStream of its own. */
const WRITER = 'src-main/platform/transports/http/sse.ts';
const OTHER_STREAMS = new Set(['src-main/platform/modules/archive/service.ts']);

const WRITES = [/\bnew\s+ReadableStream\b/, /\bcontroller\.enqueue\(/, /['"]content-type['"]\s*:\s*['"]text\/event-stream/i];
/** Reading SSE by hand: the `data: ` / `event:` prefixes as strings, or the field names compared. */
const PARSES = [/['"]data: ['"]/, /['"]event: ?['"]/, /\bfield\s*===\s*['"](data|event)['"]/];

export function sseWritersElsewhere(files: Source[]): string[] {
  return linesWhere(files, (name, line) => name !== WRITER && !OTHER_STREAMS.has(name) && WRITES.some((re) => re.test(line)));
}

export function sseParsersOfOurOwn(files: Source[]): string[] {
  return [...files.filter((f) => /sse-?parser/i.test(f.name)).map((f) => `${f.name}: a parser of our own`), ...linesWhere(files, (_name, line) => PARSES.some((re) => re.test(line)))];
}

describe('one SSE writer (transports/http/sse.ts) and one SSE parser (eventsource-parser)', () => {
  it('finds a planted writer and a planted parser', () => {
    const writer = "const body = new ReadableStream({ start(controller) { controller.enqueue(x); } });\nreturn new Response(body, { headers: { 'content-type': 'text/event-stream' } });\n";
    expect(sseWritersElsewhere([{ name: 'src-main/platform/transports/openai/sse-body.ts', text: writer }])).toHaveLength(2);
    expect(sseWritersElsewhere([{ name: WRITER, text: writer }])).toEqual([]);
    const parser = "if (l.startsWith(':')) return;\nif (field === 'data') data.push(value);\nelse if (line.startsWith('event: ')) name = line.slice(7);\n";
    expect(sseParsersOfOurOwn([{ name: 'src-renderer/api/sse.ts', text: parser }])).toHaveLength(2);
    expect(sseParsersOfOurOwn([{ name: 'src-main/platform/contract/sse-parser.ts', text: '' }])).toHaveLength(1);
    // Data URLs and an Accept header are not SSE.
    expect(sseParsersOfOurOwn([{ name: 'src-main/x.ts', text: "if (u.startsWith('data:')) ok();\n" }])).toEqual([]);
    expect(sseWritersElsewhere([{ name: 'src-main/x.ts', text: "headers: { Accept: 'text/event-stream' }\n" }])).toEqual([]);
  });

  it('holds for the platform, the preload and the renderer', () => {
    const files = sourcesUnder('src-main', 'src-preload', 'src-renderer');
    expect(sseWritersElsewhere(files)).toEqual([]);
    expect(sseParsersOfOurOwn(files)).toEqual([]);
    const deps = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).dependencies;
    expect(deps).toHaveProperty('eventsource-parser');
  });

  it('the writer is pull-based and bounded: a reader that stops reading stops the source', async () => {
    let pulled = 0;
    let ended = false;
    async function* endless() {
      try {
        for (;;) {
          pulled++;
          yield { n: pulled };
        }
      } finally {
        ended = true;
      }
    }
    const reader = sseResponse(endless()).body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: {"n":1}\n\n');
    // Turns of the event loop, not time: a push-based writer would run ahead here without bound.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(pulled).toBeLessThanOrEqual(2);
    await reader.cancel();
    for (let i = 0; i < 5 && !ended; i++) await new Promise((r) => setImmediate(r));
    expect(ended).toBe(true);
  });

  it('a failure after the headers ends the stream with the failure frame', async () => {
    async function* failing() {
      yield 'a';
      throw new Error('boom');
    }
    const res = sseResponse(failing(), { frame: (s) => `data: ${s}\n\n`, failure: () => 'data: failed\n\n' });
    expect(await res.text()).toBe('data: a\n\ndata: failed\n\n');
  });
});
