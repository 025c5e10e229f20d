import { app, dialog } from 'electron';
import { startDesktop } from './lifecycle.js';

// Entry of the Electron main process (electron-vite builds it to out/main/index.js).
startDesktop().catch((err: unknown) => {
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`Agent Desk failed to start: ${message}\n`);
  if (app.isReady()) dialog.showErrorBox('Agent Desk failed to start', message);
  app.exit(1);
});
