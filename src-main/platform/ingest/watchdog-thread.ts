/**
 * The memory watchdog's thread (started by watchdog.ts inside a reading process): every `everyMs`
 * it reads the whole process's resident memory and, past the limit, writes `mark` to fd 2
 * synchronously and kills the process. A message (a number of MB) changes the limit.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { maxRssMb, everyMs, mark } = workerData as { maxRssMb: number; everyMs: number; mark: string };
let limit = maxRssMb * 1024 * 1024;
parentPort!.on('message', (mb: number) => {
  limit = mb * 1024 * 1024;
});
setInterval(() => {
  const rss = process.memoryUsage.rss();
  if (rss > limit) {
    try {
      fs.writeSync(2, `\n${mark}${Math.round(rss / 1048576)} MB\n`);
    } catch {
      // No stderr to write to: the kill below still happens; the parent then reports a crash.
    }
    process.kill(process.pid, 'SIGKILL');
  }
}, everyMs);
