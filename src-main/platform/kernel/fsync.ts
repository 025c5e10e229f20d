import fs from 'node:fs';

/** Flushes a written file to disk (before the rename that publishes it), so a crash never leaves half of it. */
export function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
