import { runPlatformHost } from './host.js';
import { parentPortOf } from './protocol.js';

// Entry of the desktop app's platform process (electron-vite builds it to out/main/platform.js),
// which the Electron main process starts with utilityProcess.fork.
const parent = parentPortOf();
if (!parent) {
  process.stderr.write('The platform process is started by the Agent Desk window (npm start); `npm run serve` runs the platform on its own.\n');
  process.exit(1);
}
runPlatformHost(parent);
