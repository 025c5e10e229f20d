/**
 * The tokenizer's short-lived thread (started by tokens.ts, built as tokenizer.js): loads
 * gpt-tokenizer's o200k rank list and split pattern from the path the starting thread resolved
 * (~0.4 s of parsing, kept off the event loop), builds the compact tables (compact-ranks.ts), moves
 * them to the starting thread with the pattern and the library's own counts of the samples it was
 * given (to check its counter against), and ends: nothing of it stays.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { buildRankTables, type RankPiece } from './compact-ranks.js';

const { tokenizer, samples } = workerData as { tokenizer: string; samples: string[] };
// Required by its resolved path: the package stays external to every bundle (build-serve.mjs EXTERNAL).
const load = createRequire(import.meta.url);
const dir = path.dirname(tokenizer);
const list = (load(path.join(dir, 'bpeRanks', 'o200k_base.js')) as { default: ArrayLike<RankPiece> }).default;
const { O200K_TOKEN_SPLIT_REGEX: split } = load(path.join(dir, 'encodingParams', 'constants.js')) as { O200K_TOKEN_SPLIT_REGEX: RegExp };
const { tryConvertToString } = load(path.join(dir, 'utfUtil.js')) as { tryConvertToString(b: Uint8Array): string | undefined };
const tables = buildRankTables(list, (b) => tryConvertToString(b) !== undefined);
// Special-token texts count as ordinary text (the library refuses them unless told so).
const library = load(tokenizer) as { countTokens(t: string, o?: { disallowedSpecial: Set<string> }): number };
const expected = samples.map((t) => library.countTokens(t, { disallowedSpecial: new Set() }));
parentPort!.postMessage({ tables, pattern: split.source, flags: split.flags, expected }, [tables.bytes.buffer, tables.offsets.buffer, tables.slots.buffer]);
// Nothing keeps this thread once the message is sent: it ends, and its heap with it.
parentPort!.close();
