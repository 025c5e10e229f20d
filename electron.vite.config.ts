import { dirname, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

const root = dirname(fileURLToPath(import.meta.url));
const resolve = (p: string) => resolvePath(root, p);

// Where the build goes: `out` (what npm start and packaging use); a test builds beside it so that
// it never replaces files another test is serving.
const OUT = process.env.AGENT_DESK_BUILD_OUT ?? 'out';

// Native modules and the GGUF engine load their own binaries at run time: never bundle them.
const nativeDeps = ['better-sqlite3', 'node-llama-cpp'];

export default defineConfig({
  main: {
    build: {
      outDir: `${OUT}/main`,
      externalizeDeps: { include: nativeDeps },
      rolldownOptions: {
        input: {
          index: resolve('src-main/desktop/main.ts'),
          // desktop/lifecycle.ts starts the platform in a utility process from platform.js.
          platform: resolve('src-main/platform/host/platform-host.ts'),
          // Reading processes start from worker.js next to the main bundle (launched by the main process in the app).
          worker: resolve('src-main/platform/ingest/worker.ts'),
          // ingest/pages/read.ts reads fetched web pages in a reading process started from page-reader.js.
          'page-reader': resolve('src-main/platform/ingest/pages/page-reader.ts'),
          // modules/archive/import.ts runs archive imports in a worker thread from archive-import.js.
          'archive-import': resolve('src-main/platform/modules/archive/import-worker.ts'),
          // db/checkpointer.ts runs WAL checkpoints in a worker thread from checkpoint.js.
          checkpoint: resolve('src-main/platform/db/checkpoint-thread.ts'),
          // ingest/embed/builtin.ts runs the built-in embedder in a process started from embedder.js.
          embedder: resolve('src-main/platform/ingest/embed/builtin-process.ts'),
          // A file reader's memory watchdog thread (ingest/watchdog.ts) starts from rss-watchdog.js.
          'rss-watchdog': resolve('src-main/platform/ingest/watchdog-thread.ts'),
        },
        external: nativeDeps,
      },
    },
  },
  preload: {
    build: {
      outDir: `${OUT}/preload`,
      rolldownOptions: {
        input: { index: resolve('src-preload/index.ts') },
        // A sandboxed preload cannot be an ES module; .cjs because package.json says "type": "module".
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src-renderer'),
    base: './',
    plugins: [react()],
    build: {
      outDir: resolve(`${OUT}/renderer`),
      emptyOutDir: true,
      // No data: URLs for scripts under the strict CSP.
      assetsInlineLimit: 0,
      rolldownOptions: { input: { index: resolve('src-renderer/index.html') } },
    },
  },
});
