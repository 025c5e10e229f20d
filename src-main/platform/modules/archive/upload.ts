import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { PayloadTooLargeError, PlatformError, ValidationError } from '../../kernel/errors.js';
import { discardPartial } from '../../kernel/partial-file.js';

const archiveRequired = () => ValidationError.field('archive', 'The archive field is required (a multipart upload of an export .tar).');

/**
 * Streams the `archive` part of a multipart body to a temp file in `tmpDir` (never whole in
 * memory), bounded by `maxBytes` (413). The caller removes the file; on failure it is removed here.
 */
export async function receiveArchive(req: { body: ReadableStream<Uint8Array> | null; headers: Headers }, tmpDir: string, maxBytes: number): Promise<string> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type) || !req.body) {
    await req.body?.cancel().catch(() => {});
    throw archiveRequired();
  }
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes + 1024 * 1024) {
    await req.body.cancel().catch(() => {});
    throw new PayloadTooLargeError(`The archive must not be greater than ${Math.round(maxBytes / (1024 * 1024))} MB.`);
  }
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: { 'content-type': type }, limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 20, headerPairs: 50 } });
  } catch (err) {
    await req.body.cancel().catch(() => {});
    throw new PlatformError(400, `Malformed multipart body: ${(err as Error).message}`, 'malformed_multipart');
  }
  fs.mkdirSync(tmpDir, { recursive: true });
  const dest = path.join(tmpDir, `${crypto.randomUUID()}.archive.part`);
  let failure: unknown = null;
  let got = false;
  let writing: Promise<void> | null = null;
  let sink: fs.WriteStream | null = null;
  const source = Readable.fromWeb(req.body as any);
  const fail = (err: unknown) => {
    failure ??= err;
    source.unpipe(bb);
    source.destroy();
    bb.destroy();
  };
  bb.on('file', (name, stream) => {
    if ((name !== 'archive' && name !== 'file') || failure || writing) {
      stream.resume();
      return;
    }
    // Deferred: busboy still touches the part's stream right after emitting 'limit'; destroying it synchronously throws inside busboy.
    stream.on('limit', () => queueMicrotask(() => fail(new PayloadTooLargeError(`The archive must not be greater than ${Math.round(maxBytes / (1024 * 1024))} MB.`))));
    sink = fs.createWriteStream(dest, { flags: 'wx', mode: 0o600 });
    writing = pipeline(stream, sink).then(
      () => {
        if (!(stream as any).truncated) got = true;
      },
      (err) => fail(err),
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      bb.once('close', resolve);
      bb.once('error', reject);
      source.once('error', reject);
      source.pipe(bb);
    }).catch((err) => {
      failure ??= new PlatformError(400, `Malformed multipart body: ${(err as Error).message}`, 'malformed_multipart');
    });
    if (writing) await writing;
    if (failure) throw failure;
    if (!got) throw archiveRequired();
    return dest;
  } catch (err) {
    await discardPartial(sink, dest);
    throw err;
  }
}
