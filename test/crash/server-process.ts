import { startServer as spawnServer, type ServerProcess as SpawnedServer } from '../api/server-process.js';

export { ROOT } from '../api/server-process.js';

export interface ServerProcess extends SpawnedServer {
  /** Everything the server wrote (for failure messages). */
  stderr(): string;
}

/** The real server as one process (kill -9 reaches the server itself), through the one spawner (which scales `timeoutMs`). */
export async function startServer(dataDir: string, env: Record<string, string> = {}, timeoutMs = 45_000): Promise<ServerProcess> {
  const s = await spawnServer({ dataDir, env, runner: 'node', timeoutMs });
  return { ...s, stderr: s.output };
}

/** Random kill points that a failure can replay. */
export { prng } from '../fixtures/prng.js';
