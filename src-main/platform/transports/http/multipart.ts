import crypto from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context } from 'hono';
import type { AppEnv } from './env.js';
import { PayloadTooLargeError, PlatformError, ValidationError } from '../../kernel/errors.js';
import { discardPartial } from '../../kernel/partial-file.js';
import { say } from '../../contract/messages.js';

/**
 * An upload as the receiver reads it. Over HTTP it reads the Node request itself (`incoming`), so
 * a body refused half-way can be left to the server's lingering close instead of resetting the
 * connection; in-process callers (the desktop bridge's `app.fetch`) give a web stream.
 */
export interface UploadRequest {
  headers: Headers;
  readonly body: ReadableStream<Uint8Array> | null;
  signal?: AbortSignal;
  incoming?: IncomingMessage;
}

/** The request of a Hono context as an upload; the web body is only made if it is read. */
export function uploadRequest(c: Context<AppEnv>): UploadRequest {
  const raw = c.req.raw;
  const incoming = c.env?.incoming;
  // The adapter makes the web body (and starts reading the socket) on first access of body or
  // signal: over HTTP neither is touched, the receiver reads `incoming`.
  if (incoming) return { headers: raw.headers, incoming, body: null };
  return { headers: raw.headers, signal: raw.signal, get body() { return raw.body; } };
}

export interface ReceivedPart {
  tmpPath: string;
  /** the client's file name, last path segment only */
  filename: string;
  bytes: number;
  /** sha256 of the bytes, hex, computed while streaming */
  sha256: string;
  fields: Record<string, string>;
}

export interface ReceiveOptions {
  /** Accepted form field names for the file part. */
  fieldNames: string[];
  /** Largest accepted file, inclusive. */
  maxBytes: number;
  /** A fresh temp path for the bytes. */
  tmpPath: () => string;
  /** What the part is, for messages: "file", "archive". */
  label: string;
  /** The 422 when no file part came. */
  missing: () => Error;
  /** Checks the cleaned name before any byte is written (e.g. the extension); throws a 422. */
  checkName?: (filename: string) => void;
  /** Cleans the name (after the path segments are dropped). */
  cleanName?: (filename: string) => string;
  /** Flush file data to disk on close (durable stores). */
  flush?: boolean;
  maxFields?: number;
  maxFieldBytes?: number;
}

/** Multipart framing allowed on top of the file itself before a declared length is refused unread. */
export const FRAMING_ALLOWANCE = 1024 * 1024;

export const tooLargeError = (label: string, max: number) =>
  new PayloadTooLargeError(`The ${label} must not be greater than ${Math.round(max / (1024 * 1024))} MB.`);

/** The name as PHP hands it to an application: its last path segment, either separator. */
export function lastPathSegment(name: string): string {
  const parts = name.split(/[\\/]/);
  return parts[parts.length - 1];
}

/** Ends reading: a web body is canceled; a Node request is left for the server's lingering close. */
function release(req: UploadRequest, source: Readable | null): void {
  if (req.incoming) {
    source?.pause();
    return;
  }
  if (source) source.destroy();
  else void req.body?.cancel().catch(() => {});
}

/**
 * The one multipart receiver (files and archive imports): streams one file part to a temp file,
 * never buffered whole, hashing as it goes. The size limit is inclusive; a declared length over
 * it is refused at once without reading the body. On any failure, including the client going
 * away, the temp file is removed.
 */
export async function receiveFilePart(req: UploadRequest, opts: ReceiveOptions): Promise<ReceivedPart> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type) || (!req.incoming && !req.body)) {
    release(req, null);
    throw opts.missing();
  }
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > opts.maxBytes + FRAMING_ALLOWANCE) {
    release(req, null);
    throw tooLargeError(opts.label, opts.maxBytes);
  }

  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: { 'content-type': type },
      preservePath: true, // the path is dropped below, by the one rule (both separators)
      defParamCharset: 'utf8',
      // busboy signals the limit on reaching it; one byte more lets a file of exactly maxBytes in.
      limits: { fileSize: opts.maxBytes + 1, files: 1, fields: opts.maxFields ?? 20, fieldSize: opts.maxFieldBytes ?? 64 * 1024, parts: 40, headerPairs: 50 },
    });
  } catch (err) {
    release(req, null);
    throw new PlatformError(400, `Malformed multipart body: ${(err as Error).message}`, 'malformed_multipart');
  }

  const source: Readable = req.incoming ?? Readable.fromWeb(req.body as import('node:stream/web').ReadableStream<Uint8Array>);
  const fields: Record<string, string> = {};
  let tmpPath: string | null = null;
  let part: Omit<ReceivedPart, 'fields'> | null = null;
  let writing: Promise<void> | null = null;
  let sink: fs.WriteStream | null = null;
  let failure: unknown = null;
  let settle: () => void = () => {};

  // Teardown waits a tick: busboy still touches its file stream right after emitting 'limit'.
  const fail = (err: unknown) => {
    failure ??= err;
    process.nextTick(() => {
      source.unpipe(bb);
      release(req, source);
      bb.destroy();
      settle();
    });
  };

  bb.on('field', (name, value) => {
    fields[name] = value;
  });
  bb.on('filesLimit', () => fail(ValidationError.field(opts.fieldNames[0], `Only one ${opts.label} may be uploaded per request.`)));
  bb.on('file', (name, stream, info) => {
    // A part cut short by teardown errors; the outcome is already decided by then.
    stream.on('error', () => {});
    if (!opts.fieldNames.includes(name) || failure || writing) {
      stream.resume();
      return;
    }
    const raw = lastPathSegment(info.filename ?? '');
    const filename = opts.cleanName ? opts.cleanName(raw) : raw;
    try {
      if (!filename && opts.checkName) throw ValidationError.field(opts.fieldNames[0], say.must(opts.label, 'have a file name'));
      opts.checkName?.(filename);
    } catch (err) {
      stream.resume();
      return fail(err);
    }
    const path = opts.tmpPath();
    tmpPath = path;
    const hash = crypto.createHash('sha256');
    let bytes = 0;
    stream.on('limit', () => fail(tooLargeError(opts.label, opts.maxBytes)));
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    sink = fs.createWriteStream(path, { flags: 'wx', mode: 0o600, flush: opts.flush ?? false });
    writing = pipeline(stream, meter, sink).then(
      () => {
        if (!(stream as { truncated?: boolean }).truncated) part = { tmpPath: path, filename, bytes, sha256: hash.digest('hex') };
      },
      (err) => fail(err),
    );
  });

  const interrupted = () => fail(new PlatformError(400, 'The upload was interrupted.', 'upload_aborted'));
  const onClose = () => {
    if (!(source as IncomingMessage).readableEnded) interrupted();
  };
  req.signal?.addEventListener('abort', interrupted);
  req.incoming?.once('close', onClose);
  try {
    // Listeners stay for the parser's whole life: a destroy after 'close' may still emit 'error'.
    await new Promise<void>((resolve) => {
      settle = resolve;
      bb.on('close', resolve);
      bb.on('error', (err: Error) => {
        failure ??= new PlatformError(400, `Malformed multipart body: ${err.message}`, 'malformed_multipart');
        resolve();
      });
      source.on('error', () => {
        failure ??= new PlatformError(400, 'The upload was interrupted.', 'upload_aborted');
        resolve();
      });
      source.pipe(bb);
    });
    if (writing) await writing;
    if (failure) throw failure;
    if (!part) throw opts.missing();
    return { ...(part as Omit<ReceivedPart, 'fields'>), fields };
  } catch (err) {
    await discardPartial(sink, tmpPath);
    throw err;
  } finally {
    req.signal?.removeEventListener('abort', interrupted);
    req.incoming?.off('close', onClose);
  }
}
