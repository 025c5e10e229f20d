import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's folder (where package.json, src-renderer and out/ are), found upwards from this
 * file: the same answer from the sources (src-main/platform/cli) and the bundle (out/serve).
 */
export function projectRoot(from = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from, i = 0; i < 8; i++, dir = path.dirname(dir)) {
    try {
      if ((JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'agent-desk') return dir;
    } catch {}
    if (path.dirname(dir) === dir) break;
  }
  return path.resolve(from, '../../..');
}
