import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// Browser-mode build: `npx vite build -c src-renderer/vite.config.ts` → out/renderer, served by `npm run serve`.
const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../out/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No inline scripts or data: URLs under the strict CSP.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
