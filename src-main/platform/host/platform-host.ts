import { runPlatformHost } from './host.js';
import { parentPortOf } from './protocol.js';
import { keepYoungGenerationSmall } from '../kernel/young-heap.js';
import { keepOldGenerationNearLive } from '../kernel/old-heap.js';

// Entry of the desktop app's platform process (electron-vite builds it to out/main/platform.js),
// which the Electron main process starts with utilityProcess.fork.
const parent = parentPortOf();
if (!parent) {
  process.stderr.write('The platform process is started by the Agent Desk window (npm start); `npm run serve` runs the platform on its own.\n');
  process.exit(1);
}
// The app's engine runs as long as the app: its heap's young generation stays small and its old one near what it holds alive (kernel/young-heap.ts, old-heap.ts).
keepYoungGenerationSmall();
keepOldGenerationNearLive();
const host = runPlatformHost(parent);
// Ctrl+C in the terminal of `npm start` reaches this process too: the main process decides when
// to stop (it asks, and running work gets to finish). A plain SIGTERM stops it gracefully.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => host.stop());
