import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sourcesUnder, type Source } from './sources.js';

/**
 * What ships is what runs. The packaged app carries package.json's `dependencies` in its
 * node_modules; the main process, the platform and its workers load them from there at run time.
 * The renderer and the preload are bundled at build time, from whatever is installed.
 * So: every dependency is loaded by code under src-main or src-preload (or is the peer another
 * loaded dependency requires); code under src-main loads no devDependency (it would be missing
 * from the package); and nothing imports a package package.json does not declare.
 */

/** Runtime code: loaded from node_modules by the packaged app. */
const RUNTIME = ['src-main', 'src-preload'];
/** Bundled at build time: may use devDependencies (they are built in, not shipped). */
const BUNDLED = ['src-renderer'];

/**
 * devDependencies that runtime code may name, and why they never load in the package.
 * `electron`: the runtime itself, not a package the app carries. `esbuild`: resolved only when
 * running from TypeScript sources (kernel/worker-entry.ts bundles a worker for tests and dev runs).
 */
const RUNTIME_DEV_ALLOWED = new Set(['electron', 'esbuild']);

export interface PackageRef {
  pkg: string;
  file: string;
  /** A type-only reference (erased by the compiler: nothing loads at run time). */
  typeOnly: boolean;
}

const BUILTIN = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** The package a specifier names (`@scope/name` or `name`), or null for a relative path or a Node built-in. */
export function packageOf(spec: string): string | null {
  if (!spec || spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || BUILTIN.has(spec.split('/')[0])) return null;
  const parts = spec.split('/');
  if (spec.startsWith('@')) return parts.length >= 2 && parts[1] ? `${parts[0]}/${parts[1]}` : null;
  return parts[0] || null;
}

/** The fixed start of a string or template argument (`@tesseract.js-data/${code}/...` gives `@tesseract.js-data/`). */
function literalStart(node: ts.Node | undefined): string | null {
  if (!node) return null;
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text;
  return null;
}

/**
 * Every package a file refers to, read from its syntax tree (a package named in a comment or in
 * sample code inside a string loads nothing): imports and re-exports (type-only ones marked),
 * import() (in a type position, `import('x').T`, marked type-only), require(), and the resolve()
 * of require.resolve / createRequire(...).resolve / import.meta.resolve.
 */
export function packageRefs(files: Source[]): PackageRef[] {
  const refs: PackageRef[] = [];
  for (const { name, text } of files) {
    // eslint-disable-next-line prefer-const -- assigned once the tree is parsed, read by visit()
    let sf: ts.SourceFile;
    const add = (spec: string | null, typeOnly: boolean) => {
      const pkg = spec === null ? null : packageOf(spec);
      // `@scope/${x}`: any package of that scope, resolved by name at run time.
      if (spec !== null && pkg === null && /^@[^/]+\/$/.test(spec)) refs.push({ pkg: `${spec}*`, file: name, typeOnly });
      else if (pkg) refs.push({ pkg, file: name, typeOnly });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node)) {
        const c = node.importClause;
        const allTypes = Boolean(c && (c.isTypeOnly || (!c.name && c.namedBindings && ts.isNamedImports(c.namedBindings) && c.namedBindings.elements.length > 0 && c.namedBindings.elements.every((e) => e.isTypeOnly))));
        add(literalStart(node.moduleSpecifier), allTypes);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) add(literalStart(node.moduleSpecifier), node.isTypeOnly);
      else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(literalStart(node.argument.literal), true);
      else if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const isCall = callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require') || (ts.isPropertyAccessExpression(callee) && callee.name.text === 'resolve' && /require|import\.meta/i.test(callee.expression.getText(sf)));
        if (isCall) add(literalStart(node.arguments[0]), false);
      }
      ts.forEachChild(node, visit);
    };
    sf = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, name.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    visit(sf);
  }
  return refs;
}

export interface Manifest {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

/** The rule's breaches, as sentences (empty when it holds). */
export function shippedDepsBreaches(manifest: Manifest, runtime: Source[], bundled: Source[], peersOf: (pkg: string) => string[], devAllowed = RUNTIME_DEV_ALLOWED): string[] {
  const deps = new Set(Object.keys(manifest.dependencies));
  const dev = new Set(Object.keys(manifest.devDependencies));
  const runtimeRefs = packageRefs(runtime);
  const loaded = new Set(runtimeRefs.filter((r) => !r.typeOnly).map((r) => r.pkg));
  // A loaded dependency's peers must be installed beside it.
  for (const pkg of [...loaded]) for (const peer of peersOf(pkg)) loaded.add(peer);
  const breaches: string[] = [];
  const isLoaded = (d: string) => loaded.has(d) || (d.startsWith('@') && loaded.has(`${d.split('/')[0]}/*`));
  for (const d of deps) if (!isLoaded(d)) breaches.push(`${d} is a dependency that no file under src-main or src-preload loads (move it to devDependencies, or remove it)`);
  for (const r of runtimeRefs) {
    if (r.typeOnly || !dev.has(r.pkg) || deps.has(r.pkg) || devAllowed.has(r.pkg)) continue;
    breaches.push(`${r.file} loads ${r.pkg}, a devDependency: the packaged app would not have it`);
  }
  for (const r of [...runtimeRefs, ...packageRefs(bundled)]) {
    if (r.pkg.endsWith('/*')) continue;
    if (!deps.has(r.pkg) && !dev.has(r.pkg) && r.pkg !== 'electron') breaches.push(`${r.file} imports ${r.pkg}, which package.json does not declare`);
  }
  return [...new Set(breaches)];
}

function installedPeers(pkg: string): string[] {
  try {
    const json = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> };
    return Object.keys(json.peerDependencies ?? {}).filter((p) => !json.peerDependenciesMeta?.[p]?.optional);
  } catch {
    return [];
  }
}

const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;

describe('dependencies ship only what runs', () => {
  it('finds planted breaches: an unused dependency, a devDependency loaded at run time, an undeclared import', () => {
    const planted: Manifest = { dependencies: { hono: '1', 'left-pad': '1', '@scope/peer': '1' }, devDependencies: { vitest: '1', react: '1', '@types/x': '1' } };
    const runtime: Source[] = [
      { name: 'src-main/a.ts', text: "import { Hono } from 'hono';\nimport type { Test } from 'vitest';\n// import x from 'left-pad'\nconst t = await import('vitest');\n" },
      { name: 'src-main/b.ts', text: "type R = import('react').ReactNode;\nconst p = require.resolve(`unknown-pkg/${name}`);\n" },
    ];
    const bundled: Source[] = [{ name: 'src-renderer/c.tsx', text: "import React from 'react';\nimport 'not-declared/style.css';\n" }];
    const breaches = shippedDepsBreaches(planted, runtime, bundled, (p) => (p === 'hono' ? ['@scope/peer'] : []), new Set());
    expect(breaches).toEqual([
      'left-pad is a dependency that no file under src-main or src-preload loads (move it to devDependencies, or remove it)',
      'src-main/a.ts loads vitest, a devDependency: the packaged app would not have it',
      'src-main/b.ts imports unknown-pkg, which package.json does not declare',
      'src-renderer/c.tsx imports not-declared, which package.json does not declare',
    ]);
    // Resolved by name at run time (a template whose fixed start is the scope) counts as loaded.
    const byName: Source[] = [{ name: 'src-main/o.ts', text: 'const pkg = requireFromHere.resolve(`@tesseract.js-data/${code}/package.json`);' }];
    expect(shippedDepsBreaches({ dependencies: { '@tesseract.js-data/eng': '1' }, devDependencies: {} }, byName, [], () => [], new Set())).toEqual([]);
    // Sample code inside a string loads nothing.
    const sample: Source[] = [{ name: 'src-main/docs.ts', text: "const doc = `import OpenAI from 'openai';\\nconst x = require('left-pad');`;" }];
    expect(shippedDepsBreaches({ dependencies: { 'left-pad': '1' }, devDependencies: { openai: '1' } }, sample, [], () => [], new Set())).toEqual([
      'left-pad is a dependency that no file under src-main or src-preload loads (move it to devDependencies, or remove it)',
    ]);
  });

  it('holds for package.json and the sources', () => {
    expect(shippedDepsBreaches(manifest, sourcesUnder(...RUNTIME), sourcesUnder(...BUNDLED), installedPeers)).toEqual([]);
  });

  it('the AI SDK packages, used by one test, are not shipped', () => {
    for (const p of ['ai', '@ai-sdk/anthropic', '@ai-sdk/openai-compatible']) {
      expect(manifest.dependencies[p]).toBeUndefined();
      expect(manifest.devDependencies[p]).toBeDefined();
    }
  });
});
