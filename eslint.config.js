import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import fs from 'node:fs';
import regexp from 'eslint-plugin-regexp';
import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';

/** Lazy quantifiers (`*?`, `+?`, `??`, `{n,m}?`) in regex literals and `new RegExp('…')`. */
const noLazyQuantifier = {
  meta: { type: 'problem', messages: { lazy: 'A lazy quantifier rescans the rest of the text from every start: write a linear scan or parse the text (ingest/pages for HTML).' } },
  create(context) {
    const check = (node, pattern, flags) => {
      let ast;
      try {
        ast = new RegExpParser().parsePattern(pattern, 0, pattern.length, { unicode: flags.includes('u'), unicodeSets: flags.includes('v') });
      } catch {
        return;
      }
      let lazy = false;
      visitRegExpAST(ast, { onQuantifierEnter: (q) => (lazy ||= !q.greedy) });
      if (lazy) context.report({ node, messageId: 'lazy' });
    };
    return {
      Literal: (node) => node.regex && check(node, node.regex.pattern, node.regex.flags),
      'NewExpression[callee.name="RegExp"], CallExpression[callee.name="RegExp"]': (node) => {
        const [p, f] = node.arguments;
        if (p?.type === 'Literal' && typeof p.value === 'string') check(node, p.value, f?.type === 'Literal' && typeof f.value === 'string' ? f.value : '');
      },
    };
  },
};

/** Whatever git ignores (builds, bench output, data dirs) is generated, never linted. */
const generated = fs
  .readFileSync(new URL('./.gitignore', import.meta.url), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#') && !line.startsWith('!'))
  .map((line) => line.replace(/^\//, '').replace(/\/$/, ''));

/** Import patterns of the platform's layers, as written from any folder inside it. */
const LAYER = {
  modules: '**/modules/**',
  transports: '**/transports/**',
  engine: '**/engine/**',
  ingest: '**/ingest/**',
  cli: '**/cli/**',
  root: '**/platform.js',
};

/**
 * One config block per layer. ESLint keeps only the last `no-restricted-imports` setting that
 * matches a file, so each block repeats the Electron ban and the most specific block comes last.
 */
function boundaries(layers) {
  return layers.map(({ files, ignores, forbid, why, electronOk }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: electronOk ? [] : [{ name: 'electron', message: 'The platform runs on plain Node: it never imports Electron.' }],
          patterns: forbid.length ? [{ group: forbid, message: why }] : [],
        },
      ],
    },
  }));
}

export default tseslint.config(
  { ignores: generated },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // Source code says what it holds: no `any` escapes in the app itself (tests may stub freely).
    files: ['src-main/**/*.ts', 'src-preload/**/*.ts', 'src-renderer/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    // Untrusted text is parsed in linear time (ARCHITECTURE.md, Principle 10): no regex in the app's
    // main code may backtrack or rescan super-linearly (nested quantifiers, `x+$`, `<[^>]+>` and the
    // like), nor use a lazy quantifier (`[\s\S]*?</tag>` rescans the rest from every start). HTML
    // goes to ingest/pages; trims go through kernel/trim.ts.
    files: ['src-main/**/*.ts'],
    plugins: { regexp, linear: { rules: { 'no-lazy-quantifier': noLazyQuantifier } } },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': ['error', { report: 'potential', ignoreSticky: true, ignorePartial: false }],
      'linear/no-lazy-quantifier': 'error',
    },
  },
  // Boundaries between the platform's layers (ARCHITECTURE.md). Each block lists what a layer may
  // not import; `electron` is refused everywhere in the platform, which must run on plain Node.
  ...boundaries([
    { files: ['src-main/platform/**/*.ts'], forbid: [] },
    { files: ['src-main/platform/engine/**/*.ts', 'src-main/platform/ingest/**/*.ts'], forbid: [LAYER.modules, LAYER.transports, LAYER.root, LAYER.cli], why: 'engine and ingest import no module: pass what they need through an interface' },
    { files: ['src-main/platform/kernel/**/*.ts', 'src-main/platform/contract/**/*.ts', 'src-main/platform/db/**/*.ts', 'src-main/platform/jobs/**/*.ts'], forbid: [LAYER.modules, LAYER.transports, LAYER.root, LAYER.cli, LAYER.engine, LAYER.ingest], why: 'the kernel, contract, db and jobs sit below every module' },
    { files: ['src-main/platform/modules/**/*.ts'], ignores: ['src-main/platform/modules/**/routes.ts', 'src-main/platform/modules/**/*-routes.ts'], forbid: [LAYER.transports, LAYER.root, LAYER.cli], why: 'only a module\'s routes know the HTTP transport' },
    { files: ['src-main/platform/modules/**/routes.ts', 'src-main/platform/modules/**/*-routes.ts'], forbid: [LAYER.root, LAYER.cli], why: 'routes get their services as arguments' },
    { files: ['src-main/platform/transports/**/*.ts'], forbid: [LAYER.cli], why: 'transports serve the platform, the CLI starts it' },
    { files: ['src-main/desktop/**/*.ts'], forbid: ['**/platform/modules/**', '**/platform/transports/**', '**/platform/engine/**', '**/platform/ingest/**', '**/platform/db/**', '**/platform/jobs/**', '**/platform/cli/**'], electronOk: true, why: 'the desktop shell imports only the platform entry (platform.ts) and the kernel' },
  ]),
  // The renderer's rooms: the app's state lives in stores/ (every zustand store), and stores import
  // no feature (a screen builds on stores, never the other way).
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    ignores: ['src-renderer/stores/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'zustand', importNames: ['create', 'createStore'], message: 'A zustand store lives in src-renderer/stores/.' }] }],
    },
  },
  {
    files: ['src-renderer/stores/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/features/**'], message: 'Stores import no feature: move what both need into stores/ (or a shared module).' }] }],
    },
  },
);
