import crypto from 'node:crypto';
import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { PayloadTooLargeError, PlatformError, ValidationError } from '../../kernel/errors.js';
import { discardPartial } from '../../kernel/partial-file.js';
import type { FileStore } from './store.js';
import { checkExtension, cleanFilename, type IncomingFile } from './service.js';

export interface ReceivedUpload {
  file: IncomingFile;
  fields: Record<string, string>;
}

/** Multipart framing allowed on top of the file itself before a declared length is refused unread. */
const FRAMING_ALLOWANCE = 1024 * 1024;

export const tooLarge = (max: number) => new PayloadTooLargeError(`The file must not be greater than ${Math.round(max / (1024 * 1024))} MB.`);
const fileRequired = () => ValidationError.field('file', 'The file field is required.');

/**
 * Streams a multipart/form-data body (a web ReadableStream, so HTTP and the desktop bridge's
 * `app.fetch` both work) into a fsynced temp file: never buffered whole, bounded by `maxBytes`
 * (413), one `file` part with an accepted extension (422). On any failure, including the client
 * going away, the temp file is removed and nothing is recorded.
 */
export async function receiveUpload(
  req: { body: ReadableStream<Uint8Array> | null; headers: Headers; signal?: AbortSignal },
  store: FileStore,
  maxBytes: number,
): Promise<ReceivedUpload> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type) || !req.body) {
    await req.body?.cancel().catch(() => {});
    throw fileRequired();
  }
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes + FRAMING_ALLOWANCE) {
    await req.body.cancel().catch(() => {});
    throw tooLarge(maxBytes);
  }

  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: { 'content-type': type },
      preservePath: true, // the name is data; keep it as the client sent it
      defParamCharset: 'utf8',
      // busboy signals the limit on reaching it; one byte more lets a file of exactly maxBytes in.
      limits: { fileSize: maxBytes + 1, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 40, headerPairs: 50 },
    });
  } catch (err) {
    await req.body.cancel().catch(() => {});
    throw new PlatformError(400, `Malformed multipart body: ${(err as Error).message}`, 'malformed_multipart');
  }

  const fields: Record<string, string> = {};
  let tmpPath: string | null = null;
  let file: IncomingFile | null = null;
  let writing: Promise<void> | null = null;
  let sink: fs.WriteStream | null = null;
  let failure: unknown = null;
  const source = Readable.fromWeb(req.body as any);

  // Teardown waits a tick: busboy still touches its file stream right after emitting 'limit'.
  const fail = (err: unknown) => {
    failure ??= err;
    process.nextTick(() => {
      source.unpipe(bb);
      source.destroy();
      bb.destroy();
    });
  };

  bb.on('field', (name, value) => {
    fields[name] = value;
  });
  bb.on('filesLimit', () => fail(ValidationError.field('file', 'Only one file may be uploaded per request.')));
  bb.on('file', (name, stream, info) => {
    // A part cut short by teardown errors; the outcome is already decided by then.
    stream.on('error', () => {});
    if (name !== 'file' || failure) {
      stream.resume();
      return;
    }
    const filename = cleanFilename(info.filename ?? '');
    try {
      if (!filename) throw ValidationError.field('file', 'The file field must have a file name.');
      checkExtension(filename);
    } catch (err) {
      stream.resume();
      return fail(err);
    }
    const path = store.newTempPath();
    tmpPath = path;
    const hash = crypto.createHash('sha256');
    let bytes = 0;
    stream.on('limit', () => fail(tooLarge(maxBytes)));
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    sink = fs.createWriteStream(path, { flags: 'wx', mode: 0o600, flush: true });
    writing = pipeline(stream, meter, sink).then(
      () => {
        if (!(stream as any).truncated) file = { tmpPath: path, filename, bytes, sha256: hash.digest('hex') };
      },
      (err) => fail(err),
    );
  });

  const onAbort = () => fail(new PlatformError(400, 'The upload was interrupted.', 'upload_aborted'));
  req.signal?.addEventListener('abort', onAbort);
  try {
    // Listeners stay for the parser's whole life: a destroy after 'close' may still emit 'error'.
    await new Promise<void>((resolve) => {
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
    if (!file) throw fileRequired();
    return { file, fields };
  } catch (err) {
    await discardPartial(sink, tmpPath);
    throw err;
  } finally {
    req.signal?.removeEventListener('abort', onAbort);
  }
}
