/**
 * The processing worker: a child process per file (forked by run.ts) that extracts text, splits
 * it into passages and writes them to the platform database in short transactions, so neither
 * the API's event loop nor its write lock is held for long, and a hostile file can exhaust only
 * this process's memory and time, never the app's.
 */
import path from 'node:path';
import { connect } from '../db/connection.js';
import { Chunker } from './chunk.js';
import { extractorFor, describeMedia } from './extract/index.js';
import { UnreadableFileError, type ExtractionInput, type ExtractionResult } from './types.js';
import { startRssWatchdog } from './watchdog.js';
import { limitsOf } from './limits.js';
import { configureOcr } from './extract/ocr.js';
import { ocrFolderOf, storedOcrLanguages } from './extract/ocr-langs.js';
import { PassagesStore } from './passages-store.js';
import { readerParent } from '../kernel/reader-launcher.js';

const BATCH = 100;

class Deleted extends Error {}

async function main(input: ExtractionInput): Promise<ExtractionResult> {
  // The platform's own pragmas. WAL frames are checksummed in order, so a power cut loses a
  // suffix of commits, never passages under a file already marked completed.
  const db = connect(input.dbPath);
  try {
    // The OCR languages as chosen now; the database sits at the top of the data dir, beside ocr/.
    configureOcr(storedOcrLanguages(db), ocrFolderOf(path.dirname(input.dbPath)));
    const passages = new PassagesStore(db);
    // A re-run (after a crash or a failure) starts clean.
    while (passages.purgeSome(input.fileId, 500) > 0);
    if (input.bytes === 0) throw new UnreadableFileError('The file is empty.');

    let pending: string[] = [];
    let ordinal = 0;
    let chars = 0;
    const flush = db.transaction(() => {
      if (passages.fileStatus(input.fileId) !== 'in_progress') throw new Deleted();
      for (const t of pending) passages.insert(input.fileId, ordinal++, t);
      pending = [];
    });
    const chunker = new Chunker((t) => {
      pending.push(t);
      if (pending.length >= BATCH) flush.immediate();
    });
    const extract = await extractorFor(input.kind, input.ext);
    const metadata = await extract(input, {
      text(s) {
        chars += s.length;
        chunker.push(s);
      },
    });
    if (input.kind === 'image' || input.kind === 'audio' || input.kind === 'video') {
      const about = describeMedia(input, metadata);
      chars += about.length;
      chunker.push(`\n\n${about}`);
    }
    chunker.end();
    if (pending.length) flush.immediate();
    if (ordinal === 0) throw new UnreadableFileError(input.bytes === 0 ? 'The file is empty.' : 'No text could be extracted from this file.');
    return { ok: true, passages: ordinal, chars, metadata };
  } finally {
    db.close();
  }
}

function reason(err: unknown, input: ExtractionInput): ExtractionResult {
  if (err instanceof Deleted) return { ok: false, code: 'deleted', error: 'The file was deleted or its processing restarted.' };
  if (err instanceof UnreadableFileError) return { ok: false, code: 'unreadable', error: err.message };
  const msg = err instanceof Error ? err.message : String(err);
  return { ok: false, code: 'unreadable', error: `The file could not be read as .${input.ext}: ${msg.slice(0, 300)}` };
}

/**
 * One file at a time, as the parent sends them; each answer carries this process's resident
 * memory so the parent can retire a reader that grew. The parent kills us if we overstay.
 */
let watchdog: ReturnType<typeof startRssWatchdog> | null = null;
function read(input: ExtractionInput, reply: (m: unknown) => void): void {
  const limit = limitsOf(input).maxRssMb;
  if (watchdog) watchdog.postMessage(limit);
  else if (input.watchdog) watchdog = startRssWatchdog(input.watchdog, limit);
  const answer = (result: ExtractionResult) => reply({ result, rss: process.memoryUsage.rss() });
  main(input).then(answer, (err) => answer(reason(err, input)));
}

// Launched by the app itself under Node or by Electron's main process alike (kernel/reader-launcher.ts).
const parent = readerParent();
parent.onMessage((input) => read(input as ExtractionInput, (m) => parent.send(m)));
