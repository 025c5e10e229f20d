/**
 * The checkpoint thread (started by checkpointer.ts): its own connection, opened as every other
 * one is, runs a PASSIVE checkpoint every `everyMs` (PASSIVE never waits for readers or writers).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { connect } from './connection.js';

const { file, everyMs } = workerData as { file: string; everyMs: number };
const db = connect(file);
let busy = false;
const step = () => {
  if (busy) return;
  busy = true;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    if (!/SQLITE_BUSY|locked/i.test(String((err as Error | undefined)?.message))) throw err;
  } finally {
    busy = false;
  }
};
const timer = setInterval(step, everyMs);
parentPort!.on('message', (m) => {
  if (m === 'now') step();
  if (m === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort!.close();
  }
});
parentPort!.postMessage('ready');
