/**
 * The archive import's worker thread (started by importArchiveInWorker): opens its own
 * connection to the platform database and runs the whole import there.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { connect } from '../../db/connection.js';
import { importArchive, type ImportAnswer, type ImportOptions } from './import.js';
import { BadArchiveError } from './tar.js';
import type { ExportScope } from './store.js';

const { dbPath, dataDir, scope, archive, opts } = workerData as { dbPath: string; dataDir: string; scope: ExportScope; archive: string; opts?: ImportOptions };

function run(): ImportAnswer {
  const db = connect(dbPath);
  try {
    return { ok: true, result: importArchive(db, dataDir, scope, archive, opts) };
  } catch (err) {
    return { ok: false, bad: err instanceof BadArchiveError, message: err instanceof Error ? err.message : String(err) };
  } finally {
    db.close();
  }
}

parentPort!.postMessage(run());
