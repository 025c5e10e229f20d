import type { z } from 'zod';
import { createParser } from 'eventsource-parser';
import { errorFrom } from './errors';
import type { RequestInit, StreamHandlers } from './transport';
import { t as tr } from '../i18n';

// The one SSE parser: eventsource-parser, as in the platform (providers, remote agents) and the tests.

/** What reading an event stream needs of a transport (client.ts passes its own). */
interface StreamingTransport {
  stream(req: RequestInit, h: StreamHandlers): Promise<{ status: number; text?: string }>;
}

/**
 * Reads an operation's event stream (execute with `stream: true`, the re-attach stream): `onEvent`
 * sees each event parsed with the operation's `events` schema, with its `id:` when the stream sends
 * one. Resolves with the last event; a `failed` one is returned, not thrown. A non-2xx answer throws.
 */
export async function readEvents<S extends z.ZodType>(
  t: StreamingTransport,
  req: RequestInit,
  schema: S,
  onEvent: (e: z.infer<S>, id?: string) => void,
  signal?: AbortSignal,
): Promise<z.infer<S> | null> {
  let last: z.infer<S> | null = null;
  let bad: Error | null = null;
  const parser = createParser({
    onEvent: (ev) => {
      if (bad) return;
      try {
        const parsed = schema.safeParse(JSON.parse(ev.data));
        if (!parsed.success) throw new Error(tr('errors.streamShape'));
        last = parsed.data;
        onEvent(parsed.data, ev.id);
      } catch (err) {
        bad = err as Error;
      }
    },
  });
  const res = await t.stream(req, { onChunk: (c) => parser.feed(c), signal });
  parser.feed('\n\n');
  if (res.status < 200 || res.status >= 300) throw errorFrom(res.status, res.text ?? '');
  if (bad) throw bad;
  return last;
}
