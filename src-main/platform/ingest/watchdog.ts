import { Worker } from 'node:worker_threads';

/** What the watchdog writes to stderr (fd 2, synchronously) just before it kills its process. */
export const RSS_MARK = 'agent-desk-extraction: resident memory over ';

/**
 * A thread that watches the whole process's resident memory and kills the process past
 * `maxRssMb` (post a number of MB to the returned worker to change it). A thread, because the reader's own thread may be stuck in one synchronous decode
 * for seconds; the heap limit alone does not bound buffers decoded outside the JS heap. The
 * mark on fd 2 tells the parent why the process died (a SIGKILL carries no reason).
 */
export function startRssWatchdog(maxRssMb: number, everyMs = 20): Worker {
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    const fs = require('node:fs');
    let limit = workerData.maxRssMb * 1024 * 1024;
    parentPort.on('message', (mb) => { limit = mb * 1024 * 1024; });
    let peak = 0;
    setInterval(() => {
      const rss = process.memoryUsage.rss();
      if (rss > peak) peak = rss;
      if (rss > limit) {
        try { fs.writeSync(2, '\\n' + workerData.mark + Math.round(rss / 1048576) + ' MB\\n'); } catch {}
        process.kill(process.pid, 'SIGKILL');
      }
    }, workerData.everyMs);
  `;
  const w = new Worker(code, { eval: true, workerData: { maxRssMb, everyMs, mark: RSS_MARK }, stdout: false, stderr: false });
  w.unref();
  return w;
}
