/**
 * No regex in the app's main code may take more than linear time on text from outside: lint
 * (eslint.config.js) refuses nested or super-linear quantifiers and lazy ones. Each kind is
 * planted here (never written to disk) and must be refused; linear patterns must pass.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RULES = new Set(['regexp/no-super-linear-backtracking', 'regexp/no-super-linear-move', 'linear/no-lazy-quantifier']);

async function refused(code: string, file = 'src-main/platform/engine/tools/planted.ts'): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId && RULES.has(m.ruleId)).map((m) => m.ruleId!);
}

describe('regexes on untrusted text are linear, checked by lint', () => {
  it('refuses the tag stripping that took 22 s on a hostile page', async () => {
    // The old readableText, line by line.
    expect(await refused("export const t = (html: string) => /<title[^>]*>([\\s\\S]*?)<\\/title>/i.exec(html)?.[1];\n")).toContain('linear/no-lazy-quantifier');
    expect(await refused("export const c = (html: string) => html.replace(/<!--[\\s\\S]*?-->/g, ' ');\n")).toContain('linear/no-lazy-quantifier');
    expect(await refused("export const s = (html: string) => html.replace(/<[^>]+>/g, ' ');\n")).toContain('regexp/no-super-linear-move');
  });

  it('refuses nested quantifiers, trailing runs and lazy patterns built with new RegExp', async () => {
    expect(await refused('export const n = (s: string) => /^(a+)+$/.test(s);\n')).toContain('regexp/no-super-linear-backtracking');
    expect(await refused("export const u = (s: string) => s.replace(/\\/+$/, '');\n")).toContain('regexp/no-super-linear-move');
    expect(await refused("export const r = new RegExp('<b>.*?</b>', 'g');\n", 'src-main/platform/modules/files/planted.ts')).toContain('linear/no-lazy-quantifier');
  });

  it('lets linear patterns through, and the page reader and web tools pass', async () => {
    expect(await refused("export const ok = (s: string) => s.replace(/[ \\t]+/g, ' ').replace(/^\\s*</, '<').split(/\\n{3,}/);\n")).toEqual([]);
    const eslint = new ESLint({ cwd: ROOT });
    const results = await eslint.lintFiles(['src-main/platform/engine/tools/web.ts', 'src-main/platform/ingest/pages/*.ts', 'src-main/platform/kernel/trim.ts']);
    expect(results.flatMap((r) => r.messages.filter((m) => m.ruleId && RULES.has(m.ruleId)))).toEqual([]);
  });
});
