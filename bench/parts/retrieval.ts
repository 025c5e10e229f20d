/**
 * Retrieval quality and cost (npm run bench -- retrieval):
 *  - Quality on documents nobody here wrote: the licence texts Debian ships in
 *    /usr/share/common-licenses and the README.md files of installed npm packages, chunked by the
 *    app's own chunker and embedded by the built-in model. Questions with a known answering
 *    passage: hand-written reworded questions (bench/data/retrieval-reworded.json: each names an
 *    anchor phrase of its answer, worded in other words than the passage) and keyword questions
 *    drawn from passages (six content words of one of their sentences). Recall@5 and MRR@10 for
 *    bm25 alone, vectors alone, hybrid (the app's score fusion) and reciprocal rank fusion, over
 *    the whole corpus and over the question's file among four others (five attached files).
 *  - Embedding throughput of the built-in model (passages/s) and what a 100-page document costs.
 *  - Latency over 1,000,000 passages (BENCH_RETRIEVAL_PASSAGES to change): p99 of bm25 alone and
 *    of hybrid (query embedding + vector scan of the files in scope + bm25 + fusion).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchPart, Figures } from '../run.js';
import { chunkText } from '../../src-main/platform/ingest/chunk.js';
import { createPlatform, type Platform } from '../../src-main/platform/platform.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';
import { nowMicros } from '../../src-main/platform/kernel/time.js';
import { pct, time } from '../helpers/stats.js';
import { fillPassages } from '../helpers/passages.js';
import { searchPassages } from '../../src-main/platform/modules/files/search.js';
import { queryTerms } from '../../src-main/platform/db/fts-query.js';
import { toBlob } from '../../src-main/platform/modules/retrieval/vectors.js';
import { fuseRanks } from '../../src-main/platform/modules/retrieval/fusion.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LICENSES = '/usr/share/common-licenses';

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

// BENCH_RETRIEVAL_SEED picks another set of keyword questions (and attached files), to check a change on questions it was not made with.
let seed = Number(process.env.BENCH_RETRIEVAL_SEED ?? 7);
const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);

interface Doc {
  name: string;
  text: string;
}

function corpus(): Doc[] {
  const docs: Doc[] = [];
  for (const f of fs.readdirSync(LICENSES).sort()) {
    const p = path.join(LICENSES, f);
    if (fs.lstatSync(p).isSymbolicLink()) continue;
    docs.push({ name: `license:${f}`, text: fs.readFileSync(p, 'utf8') });
  }
  const nm = path.join(ROOT, 'node_modules');
  const readmes = fs
    .readdirSync(nm)
    .filter((d) => !d.startsWith('.') && !d.startsWith('@'))
    .sort()
    .map((d) => path.join(nm, d, 'README.md'))
    .filter((p) => fs.existsSync(p) && fs.statSync(p).size > 3000 && fs.statSync(p).size < 60_000);
  for (const p of readmes.slice(0, 30)) docs.push({ name: `readme:${path.basename(path.dirname(p))}`, text: fs.readFileSync(p, 'utf8') });
  return docs;
}

interface Question {
  q: string;
  kind: 'reworded' | 'keyword';
  relevant: Set<number>;
  /** The file the question is about. */
  fileId: number;
}

async function quality(dir: string, f: Figures): Promise<void> {
  const p = createPlatform({ dataDir: path.join(dir, 'quality'), logger: createLogger('silent') });
  try {
    const docs = corpus();
    const now = nowMicros();
    const insFile = p.db.prepare("INSERT INTO files(workspace_id, filename, ext, kind, bytes, sha256, status, passages, created_at, updated_at) VALUES (1, ?, 'txt', 'text', 1, '', 'completed', ?, ?, ?)");
    const insPassage = p.db.prepare('INSERT INTO file_passages(file_id, ordinal, text) VALUES (?, ?, ?)');
    const passages: { id: number; doc: string; fileId: number; text: string; norm: string }[] = [];
    const fileIds: number[] = [];
    p.db.transaction(() => {
      for (const d of docs) {
        const chunks = chunkText(d.text);
        const fid = Number(insFile.run(d.name, chunks.length, now, now).lastInsertRowid);
        fileIds.push(fid);
        chunks.forEach((t, i) => passages.push({ id: Number(insPassage.run(fid, i, t).lastInsertRowid), doc: d.name, fileId: fid, text: t, norm: norm(t) }));
      }
    })();
    f['corpus_documents'] = docs.length;
    f['corpus_passages'] = passages.length;

    // Embedding with the built-in model, as the app does it in the background.
    const r = p.services.retrieval;
    const ms = await time(async () => {
      r.kick(true);
      await r.idle();
    });
    if (!r.view().vectors_in_use) throw new Error(`embedding did not complete: ${JSON.stringify(r.view())}`);
    f['builtin_embed_passages_per_s'] = passages.length / (ms / 1000);

    const questions: Question[] = [];
    const reworded = JSON.parse(fs.readFileSync(path.join(ROOT, 'bench/data/retrieval-reworded.json'), 'utf8')) as { doc: string; anchor: string; q: string }[];
    let sharing = 0;
    for (const x of reworded) {
      const anchor = norm(x.anchor).slice(0, 40);
      const rel = passages.filter((ps) => ps.doc === `license:${x.doc}` && ps.norm.includes(anchor));
      if (!rel.length) throw new Error(`no passage holds the anchor ${JSON.stringify(x.anchor)}`);
      questions.push({ q: x.q, kind: 'reworded', relevant: new Set(rel.map((ps) => ps.id)), fileId: rel[0].fileId });
      const words = new Set(rel.flatMap((ps) => queryTerms(ps.text.slice(0, 100_000)).concat(ps.text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])));
      if (queryTerms(x.q).some((t) => words.has(t))) sharing++;
    }
    f['reworded_questions'] = reworded.length;
    f['reworded_questions_sharing_any_content_word_with_passage'] = sharing;
    // Keyword questions: six content words, in order, of one sentence of a random passage.
    while (questions.filter((q) => q.kind === 'keyword').length < 110) {
      const ps = passages[Math.floor(rnd() * passages.length)];
      const sentences = ps.norm.split(/(?<=[.!?])\s+/).filter((s) => queryTerms(s).length >= 8);
      if (!sentences.length) continue;
      const s = sentences[Math.floor(rnd() * sentences.length)];
      const terms = queryTerms(s);
      const start = Math.floor(rnd() * (terms.length - 6));
      const rel = passages.filter((x) => x.norm.includes(s));
      questions.push({ q: terms.slice(start, start + 6).join(' '), kind: 'keyword', relevant: new Set(rel.map((x) => x.id)), fileId: ps.fileId });
    }
    f['questions_total'] = questions.length;

    // Two scopes: the whole corpus (44 files, many of them licences that say the same things in
    // other words), and the question's file among four others, as when a user attached five.
    const scopes = {
      corpus: () => fileIds,
      attached: (q: Question) => {
        const others = fileIds.filter((id) => id !== q.fileId);
        const picked = new Set<number>();
        while (picked.size < 4) picked.add(others[Math.floor(rnd() * others.length)]);
        return [q.fileId, ...picked];
      },
    };
    // BENCH_RETRIEVAL_DUMP=<file>: each question's rank per method and both methods' scored lists,
    // to see which questions a change wins or loses and to try fusions without embedding again.
    const dumpTo = process.env.BENCH_RETRIEVAL_DUMP;
    const dump: Record<string, unknown>[] = [];
    for (const [scope, filesOf] of Object.entries(scopes)) {
      const scoped = questions.map((q) => ({ q, files: filesOf(q) }));
      const ranks = new Map<Question, Record<string, number | null>>();
      // 'rrf': reciprocal rank fusion of the same two lists, for comparison with the app's fusion.
      for (const mode of ['bm25', 'vector', 'hybrid', 'rrf'] as const) {
        const by: Record<string, { r5: number; rr: number; n: number }> = { reworded: { r5: 0, rr: 0, n: 0 }, keyword: { r5: 0, rr: 0, n: 0 } };
        for (const { q, files } of scoped) {
          const ids =
            mode === 'rrf'
              ? fuseRanks(
                  (await r.searchPassages(files, q.q, 50, 'bm25')).map((h) => h.passage_id),
                  (await r.searchPassages(files, q.q, 50, 'vector')).map((h) => h.passage_id),
                )
              : (await r.searchPassages(files, q.q, 10, mode)).map((h) => h.passage_id);
          const rank = ids.slice(0, 10).findIndex((id) => q.relevant.has(id));
          if (dumpTo) ranks.set(q, { ...ranks.get(q), [mode]: rank >= 0 ? rank + 1 : null });
          const b = by[q.kind];
          b.n++;
          if (rank >= 0 && rank < 5) b.r5++;
          if (rank >= 0) b.rr += 1 / (rank + 1);
        }
        for (const [kind, b] of Object.entries(by)) {
          f[`${scope} ${mode}_recall5_${kind}`] = b.r5 / b.n;
          f[`${scope} ${mode}_mrr10_${kind}`] = b.rr / b.n;
        }
      }
      if (dumpTo)
        for (const { q, files } of scoped) {
          const scored = async (mode: 'bm25' | 'vector') =>
            (await r.searchPassages(files, q.q, 50, mode)).map((h) => ({ id: h.passage_id, score: (mode === 'bm25' ? h.scores.bm25 : h.scores.vector) ?? 0 }));
          dump.push({ scope, kind: q.kind, q: q.q, relevant: [...q.relevant], ranks: ranks.get(q), bm25: await scored('bm25'), vector: await scored('vector') });
        }
      f[`${scope} hybrid_beats_bm25_on_reworded`] = (f[`${scope} hybrid_recall5_reworded`] as number) > (f[`${scope} bm25_recall5_reworded`] as number);
      f[`${scope} hybrid_not_below_bm25_on_keyword`] = (f[`${scope} hybrid_recall5_keyword`] as number) >= (f[`${scope} bm25_recall5_keyword`] as number);
    }
    if (dumpTo) fs.writeFileSync(dumpTo, JSON.stringify(dump));
  } finally {
    await p.close();
  }
}

/**
 * A 100-page document: 100 pages of ~3,000 characters of licence text, chunked by the app's
 * chunker; its embedding time follows from the throughput measured on the corpus above.
 */
function hundredPages(f: Figures): void {
  const text = fs
    .readdirSync(LICENSES)
    .map((x) => path.join(LICENSES, x))
    .filter((x) => !fs.lstatSync(x).isSymbolicLink())
    .map((x) => fs.readFileSync(x, 'utf8'))
    .join('\n\n');
  let doc = '';
  while (doc.length < 300_000) doc += text;
  const chunks = chunkText(doc.slice(0, 300_000));
  f['pdf100_passages'] = chunks.length;
  f['pdf100_embed_s_at_measured_rate'] = chunks.length / (f['builtin_embed_passages_per_s'] as number);
}

async function latency(dir: string, f: Figures): Promise<void> {
  const total = Number(process.env.BENCH_RETRIEVAL_PASSAGES ?? 1_000_000);
  const PER_FILE = 1000;
  const FILES = Math.max(1, Math.round(total / PER_FILE));
  const p: Platform = createPlatform({ dataDir: path.join(dir, 'latency'), logger: createLogger('silent') });
  try {
    const space = p.services.retrieval.store.space('builtin:use-lite-512', 512).id;
    const insVec = p.db.prepare('INSERT INTO passage_vectors(space, file_id, passage_id, vec) VALUES (?, ?, ?, ?)');
    const v = new Float32Array(512);
    const { passages, seconds, pick, query } = fillPassages(p.db, {
      files: FILES,
      perFile: PER_FILE,
      onPassage(id, pid) {
        for (let k = 0; k < 512; k++) v[k] = Math.random() - 0.5;
        insVec.run(space, id, pid, toBlob(v));
      },
    });
    f['latency_passages'] = passages;
    f['latency_bulk_insert_s'] = seconds;
    // The vectors are complete: mark them ready as the background pass would.
    p.services.settings.set('retrieval.ready_space', 'builtin:use-lite-512');
    const r = p.services.retrieval;
    for (let i = 0; i < 30; i++) await r.searchPassages(pick(5), query(), 8); // warm the model and page cache
    for (const n of [5, 50]) {
      const bm: number[] = [];
      const hy: number[] = [];
      const vs: number[] = [];
      for (let i = 0; i < 300; i++) {
        const files = pick(n);
        const q = query();
        bm.push(await time(() => searchPassages(p.db, files, q, 8)));
        hy.push(await time(() => r.searchPassages(files, q, 8)));
        for (let k = 0; k < 512; k++) v[k] = Math.random() - 0.5;
        vs.push(await time(() => r.store.nearestPassages(space, files, v, 50)));
      }
      f[`bm25_p99_ms_${n}_files`] = pct(bm, 99);
      f[`hybrid_p50_ms_${n}_files`] = pct(hy, 50);
      f[`hybrid_p99_ms_${n}_files`] = pct(hy, 99);
      f[`vector_scan_p99_ms_${n}_files`] = pct(vs, 99);
    }
    f['bm25_p99_under_20ms'] = (f['bm25_p99_ms_5_files'] as number) <= 20 && (f['bm25_p99_ms_50_files'] as number) <= 20;
  } finally {
    await p.close();
  }
}

const part: BenchPart = {
  name: 'retrieval',
  async run() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-retrieval-'));
    const f: Figures = {};
    try {
      const step = async (name: string, fn: () => Promise<void>) => {
        const t = performance.now();
        await fn();
        process.stderr.write(`  retrieval: ${name} done in ${((performance.now() - t) / 1000).toFixed(1)} s ${JSON.stringify(f)}\n`);
      };
      await step('quality', () => quality(dir, f));
      await step('100 pages', async () => hundredPages(f));
      if (process.env.BENCH_RETRIEVAL_PASSAGES !== '0') await step('latency', () => latency(dir, f));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return f;
  },
};
export default part;
