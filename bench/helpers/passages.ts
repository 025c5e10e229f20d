/**
 * The large-corpus filler the retrieval benches share: files of random 30-word passages written
 * straight into the database (as processing would have left them), and random queries and scopes
 * over them. Words come from a Zipf-like vocabulary (a few words everywhere, most words rare), so
 * some queries hit long posting lists, as real text does.
 */
import type { Platform } from '../../src-main/platform/platform.js';
import { nowMicros } from '../../src-main/platform/kernel/time.js';

export interface Corpus {
  /** the files' ids */
  ids: number[];
  passages: number;
  /** time to write it all */
  seconds: number;
  /** one random word of the vocabulary */
  word(): string;
  /** a query of 3 to 6 random words */
  query(): string;
  /** n random file ids (a search scope) */
  pick(n: number): number[];
}

/**
 * Writes `files` completed text files of `perFile` passages each, one transaction per file.
 * `onPassage` runs inside that transaction for what a passage also needs (e.g. its vector).
 */
export function fillPassages(
  db: Platform['db'],
  opts: { files: number; perFile: number; vocabulary?: number; onPassage?: (fileId: number, passageId: number) => void },
): Corpus {
  const vocab = Array.from({ length: opts.vocabulary ?? 30_000 }, (_, i) => `w${i.toString(36)}`);
  const word = () => vocab[Math.floor(vocab.length * Math.random() ** 3)];
  const now = nowMicros();
  const insFile = db.prepare("INSERT INTO files(workspace_id, filename, ext, kind, bytes, sha256, status, passages, created_at, updated_at) VALUES (1, ?, 'txt', 'text', 1, '', 'completed', ?, ?, ?)");
  const insPassage = db.prepare('INSERT INTO file_passages(file_id, ordinal, text) VALUES (?, ?, ?)');
  const t0 = performance.now();
  const ids: number[] = [];
  for (let fi = 0; fi < opts.files; fi++) {
    db.transaction(() => {
      const id = Number(insFile.run(`f${fi}.txt`, opts.perFile, now, now).lastInsertRowid);
      ids.push(id);
      for (let o = 0; o < opts.perFile; o++) {
        const pid = Number(insPassage.run(id, o, Array.from({ length: 30 }, word).join(' ')).lastInsertRowid);
        opts.onPassage?.(id, pid);
      }
    })();
  }
  return {
    ids,
    passages: opts.files * opts.perFile,
    seconds: (performance.now() - t0) / 1000,
    word,
    query: () => Array.from({ length: 3 + Math.floor(Math.random() * 4) }, word).join(' '),
    pick: (n) => Array.from({ length: n }, () => ids[Math.floor(Math.random() * ids.length)]),
  };
}
