import { startServer as spawnServer, type ServerProcess as SpawnedServer } from '../api/server-process.js';

export { ROOT } from '../api/server-process.js';

export interface ServerProcess extends SpawnedServer {
  /** Everything the server wrote (for failure messages). */
  stderr(): string;
}

/** The real server as one process (kill -9 reaches the server itself), through the one spawner. */
export async function startServer(dataDir: string, env: Record<string, string> = {}, timeoutMs = 30_000): Promise<ServerProcess> {
  const s = await spawnServer({ dataDir, env, runner: 'node', timeoutMs });
  return { ...s, stderr: s.output };
}

/** A small seeded PRNG (mulberry32): random kill points that a failure can replay. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
