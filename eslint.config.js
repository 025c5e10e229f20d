import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import fs from 'node:fs';

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
);
