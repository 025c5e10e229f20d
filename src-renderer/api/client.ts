import type { z } from 'zod';
import { pathOf, queryOf, type Answer, type CallInput, type Operation } from '../../src-main/platform/contract/operation';
import { ApiError, errorFrom } from './errors';
import { t as tr } from '../i18n';
import { readEvents } from './sse';
import type { RawResponse, Transport, UploadHandlers } from './transport';

/** An operation that answers a stream of events (`text/event-stream`). */
export type StreamedOperation = Operation & { events: z.ZodType };
/** An operation whose body is multipart (a file and its fields). */
export type UploadOperation = Operation & { upload: { schema: z.ZodType } };
/** An operation that answers bytes (an export). */
export type BytesOperation = Operation & { bytes: string };

/** One event of a streamed operation, parsed by its `events` schema. */
export type EventOf<O extends StreamedOperation> = z.infer<O['events']>;

/**
 * What a stream call passes: an operation that answers only events takes its input as declared;
 * one that answers JSON unless asked (execute) must ask, so a stream is never read from JSON.
 */
export type StreamInput<O extends StreamedOperation> = O['onlyEvents'] extends true ? CallInput<O> : CallInput<O> & { body: { stream: true } };

/** A multipart value: text, or a file (a File keeps its name). */
export type FormValue = string | number | boolean | Blob;
/** The multipart fields an upload operation declares (each as its schema says: required or not). */
export type UploadFields<O extends UploadOperation> = { [K in keyof z.input<O['upload']['schema']>]: FormValue };

/** An export's bytes as text, with the file name the platform gives it (null when it gives none). */
export interface Exported {
  text: string;
  filename: string | null;
  type: string;
}

/** The address of an operation with its path and query filled: the one way the renderer names a URL. */
export const urlOf = (o: Operation, input: { params?: Record<string, unknown>; query?: Record<string, unknown> } = {}): string =>
  `${o.base ?? '/api'}${pathOf(o, input.params)}${queryOf(input.query)}`;

const formOf = (fields: Record<string, FormValue | undefined>): FormData => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    if (v instanceof Blob) form.append(k, v, v instanceof File ? v.name : 'blob');
    else form.append(k, String(v));
  }
  return form;
};

const filenameOf = (disposition: string): string | null => {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (utf8) return decodeURIComponent(utf8);
  return /filename="([^"]*)"/i.exec(disposition)?.[1] ?? null;
};

/**
 * The one typed client: the renderer calls a declared operation (`api.call(ops.getAgent, { params:
 * { id } })`), never a method per operation. Four ways, by what the answer is: JSON (`call`), an
 * event stream (`stream`), a multipart upload with progress (`upload`), bytes (`bytes`). Every
 * answer is parsed with the operation's schema, whatever the transport.
 */
export function createClient(t: Transport) {
  const read = <S extends z.ZodType>(schema: S, res: RawResponse): z.infer<S> => {
    if (res.status < 200 || res.status >= 300) throw errorFrom(res.status, res.text);
    let json: unknown;
    try {
      json = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      throw new ApiError(res.status, tr('errors.notJson'));
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new ApiError(res.status, tr('errors.unexpected', { detail: `${parsed.error.issues[0]?.message ?? 'invalid shape'} at ${parsed.error.issues[0]?.path.join('.') ?? ''}` }));
    return parsed.data;
  };
  const headersOf = (input: { body?: unknown; headers?: Record<string, string> }, accept: string): Record<string, string> => ({
    accept,
    ...(input.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...input.headers,
  });
  const bodyOf = (input: { body?: unknown }): string | undefined => (input.body === undefined ? undefined : JSON.stringify(input.body));

  return {
    transport: t.kind,

    /** Calls a declared operation: path, query, headers and body as its declaration says; the answer parsed by its schema. */
    async call<O extends Operation>(o: O, input: CallInput<O>): Promise<Answer<O>> {
      const res = await t.request({ method: o.method.toUpperCase(), path: urlOf(o, input), headers: headersOf(input, 'application/json'), body: bodyOf(input) });
      return read(o.response, res) as Answer<O>;
    },

    /**
     * Reads a streamed operation's events: `onEvent` sees each one parsed by the operation's
     * `events` schema, with its `id:` when the stream sends one. Resolves with the last event (a
     * `failed` one is returned, not thrown); a non-2xx answer throws.
     */
    stream<O extends StreamedOperation>(o: O, input: StreamInput<O>, onEvent: (e: EventOf<O>, eventId?: string) => void, signal?: AbortSignal): Promise<EventOf<O> | null> {
      const i = input as CallInput<O>;
      return readEvents<O['events']>(t, { method: o.method.toUpperCase(), path: urlOf(o, i), headers: headersOf(i, 'text/event-stream'), body: bodyOf(i) }, o.events, onEvent, signal);
    },

    /** Sends a declared upload operation's multipart fields (with progress where the transport can tell); the answer parsed by its schema. */
    async upload<O extends UploadOperation>(o: O, input: CallInput<O> & { form: UploadFields<O> }, h: UploadHandlers = {}): Promise<Answer<O>> {
      return read(o.response, await t.upload(urlOf(o, input), formOf(input.form as Record<string, FormValue | undefined>), h)) as Answer<O>;
    },

    /** Fetches an operation's bytes (an export) as text, with the name and type the platform gives them. */
    async bytes<O extends BytesOperation>(o: O, input: CallInput<O>): Promise<Exported> {
      const res = await t.request({ method: o.method.toUpperCase(), path: urlOf(o, input), headers: { ...input.headers } });
      if (res.status < 200 || res.status >= 300) throw errorFrom(res.status, res.text);
      return { text: res.text, filename: filenameOf(res.headers['content-disposition'] ?? ''), type: res.headers['content-type'] ?? o.bytes };
    },
  };
}

export type Client = ReturnType<typeof createClient>;
