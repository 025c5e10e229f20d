#!/usr/bin/env node
// npm run serve | keys | backup | export | import | mcp: runs the command from the built bundle
// (out/serve, scripts/build-serve.mjs), rebuilding it first, with one line said, when a source is
// newer. The bundle runs in this same process: no second Node start, no TypeScript loader.
// `npm run serve:dev` runs the sources through tsx instead.
import module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { requireSupportedNode } from './node-version.mjs';
import { ROOT, SERVE_OUT, ensureServeBuilt } from './build-serve.mjs';

/** Each command's entry, and whether the command word stays in argv for the entry's own parser. */
const COMMANDS = {
  serve: { entry: 'main', keep: true },
  keys: { entry: 'main', keep: true },
  backup: { entry: 'backup', keep: true },
  export: { entry: 'backup', keep: true },
  import: { entry: 'backup', keep: true },
  mcp: { entry: 'mcp-stdio', keep: false },
};

const command = COMMANDS[process.argv[2]];
if (!command) {
  process.stderr.write(`Usage: node scripts/cli.mjs ${Object.keys(COMMANDS).join('|')} [options]\n`);
  process.exit(2);
}
requireSupportedNode(`npm run ${process.argv[2]}`);
// mcp speaks its protocol on stdout: the build's line goes to stderr, like every other note.
await ensureServeBuilt();
if (!command.keep) process.argv.splice(2, 1);
// V8's compiled code is kept between starts (Node 22.1+), next to the other build caches.
module.enableCompileCache?.(path.join(ROOT, 'node_modules', '.cache', 'agent-desk', 'compile'));
await import(pathToFileURL(path.join(SERVE_OUT, `${command.entry}.js`)).href);
