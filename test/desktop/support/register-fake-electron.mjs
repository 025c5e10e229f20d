// `node --import ./register-fake-electron.mjs`: `import 'electron'` resolves to the stand-in.
import { register } from 'node:module';
register(new URL('./fake-electron-hooks.mjs', import.meta.url));
