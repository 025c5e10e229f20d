// Imports, from out/main, every chunk the main bundle loads lazily (extractors...) and every
// package it leaves external, the way the built app would at run time: a missing package, an
// ESM/CJS mismatch or a named export a CommonJS package does not have fails here, not on a
// person's first start. Run with the fake electron registered. Prints: RESULT <json>.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const outMain = path.join(process.env.FAKE_ELECTRON_APP_PATH ?? process.cwd(), process.env.BUILT_OUT ?? 'out', 'main');
// Imported inside optional code paths of dependencies, never at run time here.
const OPTIONAL = new Set(['pnpapi']);
const files = [path.join(outMain, 'index.js'), path.join(outMain, 'platform.js'), path.join(outMain, 'worker.js'), ...fs.readdirSync(path.join(outMain, 'chunks')).map((f) => path.join(outMain, 'chunks', f))];
const specifiers = new Set();
for (const f of files) {
  const src = fs.readFileSync(f, 'utf8');
  for (const m of src.matchAll(/(?:^|[;\s])(?:import|export)\s[^'"]*?from\s*["']([^"'./][^"']*)["']|import\(\s*["']([^"'./][^"']*)["']\s*\)|require\(\s*["']([^"'./][^"']*)["']\s*\)/g)) {
    const s = m[1] ?? m[2] ?? m[3];
    if (!s.startsWith('node:') && !OPTIONAL.has(s)) specifiers.add(s);
  }
}
const failures = [];
// Resolve as out/main/index.js would (bare specifiers resolve upward from there).
const resolveFrom = pathToFileURL(path.join(outMain, 'index.js')).href;
const { createRequire, builtinModules } = await import('node:module');
const req = createRequire(resolveFrom);
const imported = [];
for (const s of [...specifiers].sort()) {
  if (builtinModules.includes(s) || s === 'electron') continue;
  try {
    let url;
    try {
      url = import.meta.resolve(s, resolveFrom);
    } catch {
      url = pathToFileURL(req.resolve(s)).href;
    }
    await import(url);
    imported.push(s);
  } catch (err) {
    failures.push(`${s}: ${err.message.split('\n')[0]}`);
  }
}
const chunks = [];
for (const f of files.filter((f) => f.includes(`${path.sep}chunks${path.sep}`))) {
  try {
    await import(pathToFileURL(f).href);
    chunks.push(path.basename(f));
  } catch (err) {
    failures.push(`${path.relative(outMain, f)}: ${err.message.split('\n')[0]}`);
  }
}
process.stdout.write(`RESULT ${JSON.stringify({ imported, chunks, failures })}\n`);
process.exit(0);
