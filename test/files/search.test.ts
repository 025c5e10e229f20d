/**
 * searchPassages scoped to many files: the hits are exactly the best passages of those files by
 * bm25 over the text (a reference query without any file scope, filtered afterwards), whatever
 * the number of files; files not completed give nothing; only-common-word queries still answer.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePlatform } from '../api/helpers.js';
import { nowMicros } from '../../src-main/platform/kernel/time.js';
import { searchPassages } from '../../src-main/platform/modules/files/search.js';

describe('searchPassages over many files', () => {
  const p = makePlatform();
  const ids: number[] = [];
  // A small deterministic corpus: 80 files x 40 passages, words from a skewed vocabulary.
  let seed = 42;
  const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const vocab = Array.from({ length: 400 }, (_, i) => `v${i.toString(36)}`);
  const word = () => vocab[Math.floor(vocab.length * rnd() ** 2)];

  beforeAll(() => {
    const now = nowMicros();
    const insFile = p.db.prepare("INSERT INTO files(workspace_id, filename, ext, kind, bytes, sha256, status, created_at, updated_at) VALUES (1, ?, 'txt', 'text', 1, '', ?, ?, ?)");
    const insPassage = p.db.prepare('INSERT INTO file_passages(file_id, ordinal, text) VALUES (?, ?, ?)');
    p.db.transaction(() => {
      for (let f = 0; f < 80; f++) {
        const id = Number(insFile.run(`doc${f}.txt`, f === 3 ? 'in_progress' : 'completed', now, now).lastInsertRowid);
        ids.push(id);
        for (let o = 0; o < 40; o++) insPassage.run(id, o, Array.from({ length: 5 + Math.floor(rnd() * 30) }, word).join(' '));
      }
    })();
  });
  afterAll(async () => {
    await p.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
  });

  /** bm25 of the text alone over every passage, then kept to `files`: what the scoped search must equal. */
  const reference = (files: number[], terms: string[], n: number) => {
    const match = `text : (${terms.map((t) => `"${t}"`).join(' OR ')})`;
    const all = p.db
      .prepare<[string], { id: number; file_id: number; rank: number }>(
        `SELECT p.id, p.file_id, bm25(file_passages_fts, 1.0, 0.0) AS rank FROM file_passages_fts JOIN file_passages p ON p.id = file_passages_fts.rowid
         WHERE file_passages_fts MATCH ? ORDER BY rank, p.id`,
      )
      .all(match);
    return all.filter((r) => files.includes(r.file_id)).slice(0, n);
  };

  it.each([1, 5, 50, 79])('with %i files the hits equal the reference ranking', (count) => {
    const files = ids.filter((id) => id !== ids[3]).slice(0, count);
    for (const query of ['v5 v9 v1a', 'v2x v3c', 'v10 v11 v12 v13 v14 v15']) {
      const terms = query.split(' ');
      const hits = searchPassages(p.db, files, query, 8);
      const want = reference(files, terms, 8);
      expect(hits.length, query).toBe(want.length);
      expect(hits.length, query).toBeGreaterThan(0);
      // Same scores in the same order (ties may come in either order: compare rank lists, then ids per rank).
      expect(hits.map((h) => h.rank)).toEqual(want.map((w) => w.rank));
      expect(hits.every((h) => files.includes(h.file_id))).toBe(true);
      const byRank = (xs: { rank: number; id: number }[]) => [...xs].sort((a, b) => a.rank - b.rank || a.id - b.id).map((x) => x.id);
      expect(byRank(hits.map((h) => ({ rank: h.rank, id: h.passage_id })))).toEqual(byRank(want));
      expect(hits.every((h) => h.filename === `doc${ids.indexOf(h.file_id)}.txt`)).toBe(true);
    }
  });

  it('a file that is not completed gives nothing, even when asked for with others', () => {
    expect(searchPassages(p.db, [ids[3]], 'v0 v1 v2', 8)).toEqual([]);
    const hits = searchPassages(p.db, ids, 'v0 v1 v2', 100);
    expect(hits.length).toBeGreaterThan(8);
    expect(hits.some((h) => h.file_id === ids[3])).toBe(false);
  });

  it('a query of only very common words (in more than 5,000 passages) still finds passages holding them', () => {
    const now = nowMicros();
    const big = Number(
      p.db.prepare("INSERT INTO files(workspace_id, filename, ext, kind, bytes, sha256, status, created_at, updated_at) VALUES (1, 'big.txt', 'txt', 'text', 1, '', 'completed', ?, ?)").run(now, now)
        .lastInsertRowid,
    );
    const ins = p.db.prepare('INSERT INTO file_passages(file_id, ordinal, text) VALUES (?, ?, ?)');
    // "alpha" and "beta" each in 6,000 passages; only 10 hold both.
    p.db.transaction(() => {
      for (let i = 0; i < 6000; i++) ins.run(big, i, `alpha filler${i % 50}`);
      for (let i = 0; i < 6000; i++) ins.run(big, 6000 + i, `beta filler${i % 50}`);
      for (let i = 0; i < 10; i++) ins.run(big, 12000 + i, `alpha beta both${i}`);
    })();
    const hits = searchPassages(p.db, [big, ids[0]], 'alpha beta', 12);
    expect(hits).toHaveLength(12);
    // The ten passages that hold both words rank first; the rest hold one of them.
    expect(hits.slice(0, 10).every((h) => /alpha beta both/.test(h.text))).toBe(true);
    expect(hits.slice(10).every((h) => /^(alpha|beta) filler/.test(h.text))).toBe(true);
    for (let i = 1; i < 10; i++) expect(hits[i - 1].rank).toBeLessThanOrEqual(hits[i].rank);
    expect(searchPassages(p.db, [big], 'alpha', 3).map((h) => h.text.split(' ')[0])).toEqual(['alpha', 'alpha', 'alpha']);
  });
});
