import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A bench writes nowhere the lint or the tests read: its output goes under bench/results (git-ignored),
 * temp dirs or the OS's temp folder, and the lint skips whatever git ignores, so `npm run bench`
 * followed by `npm test` (whose first step is the lint) passes. Before, the startup bench left a
 * desktop build in out-bench/ and eslint linted it (81 errors).
 */
describe('bench output stays out of the lint and the tests', () => {
  const ignored = fs
    .readFileSync(path.join(ROOT, '.gitignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#') && !l.startsWith('*'));

  it('the lint skips every folder git ignores, bench/results (and the startup bench build in it) among them', async () => {
    expect(ignored).toContain('bench/results/');
    const eslint = new ESLint({ cwd: ROOT });
    for (const entry of ignored) {
      const file = `${entry.replace(/^\//, '').replace(/\/$/, '')}/some/built/index.js`;
      expect(await eslint.isPathIgnored(path.join(ROOT, file)), file).toBe(true);
    }
    expect(await eslint.isPathIgnored(path.join(ROOT, 'bench/results/desk-out/main/index.js'))).toBe(true);
    // The lint still reads the code beside it.
    expect(await eslint.isPathIgnored(path.join(ROOT, 'bench/parts/startup.ts'))).toBe(false);
  });

  it('every folder a bench names for its output in the repo is under bench/results', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (e.name !== 'results') walk(p);
        } else if (/\.(ts|mts|mjs|js)$/.test(e.name)) files.push(p);
      }
    };
    walk(path.join(ROOT, 'bench'));
    const named: string[] = [];
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      // Output folders named in the repo: a build's out dir (AGENT_DESK_BUILD_OUT, outDir) or a constant naming one.
      for (const m of text.matchAll(/(?:AGENT_DESK_BUILD_OUT|outDir|_OUT)\s*[:=]\s*['"`]([^'"`]+)['"`]/g)) named.push(`${path.relative(ROOT, f)}: ${m[1]}`);
    }
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((n) => !/: bench\/results\//.test(n))).toEqual([]);
  });

  it('the tests collect nothing from bench output', () => {
    const config = fs.readFileSync(path.join(ROOT, 'vitest.config.ts'), 'utf8');
    const include = [...config.matchAll(/'([^']*\*\*[^']*)'/g)].map((m) => m[1]);
    expect(include.length).toBeGreaterThan(0);
    for (const pattern of include) expect(pattern.startsWith('test/'), pattern).toBe(true);
  });
});
