/**
 * The two catalogs hold the same keys (a key in one language and not the other fails here and in
 * tsc), the same placeholders and tags, no empty text, and Portuguese that is not English copied.
 */
import { describe, expect, it } from 'vitest';
import { en } from '../../src-renderer/i18n/en';
import { ptBR } from '../../src-renderer/i18n/pt-BR';
import { NAMES } from './i18n/literals';

type Tree = { [k: string]: string | Tree };
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const EN = flatten(en as Tree);
const PT = flatten(ptBR as Tree);
const marks = (s: string) => [...s.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}|<\/?(\w+)\s*\/?>/g)].map((m) => m[1] ?? `<${m[2]}>`).sort();
/** Texts that are rightly the same in both languages: names, codes, symbols. */
const SAME_OK = /^(OK|OCR|Webhooks?|MCP|API|URL|JSON|English|Português \(Brasil\)|Agent Desk|–|…|\{\{[\w.]+\}\}.*)$/;
/** A list of one-word names: "llama.cpp, vLLM, LocalAI…". */
const NAME_LIST = /^[\w.-]+(, [\w.-]+)+…?$/;
/** Names in Title Case, maybe with a name in parentheses: "Brave Search", "CUDA (NVIDIA)". */
const TITLE_NAME = /^[A-Z][\w.-]*( [A-Z][\w.-]*)*( \([A-Z][\w.-]*( [A-Z][\w.-]*)*\))?$/;

describe('the catalogs', () => {
  it('hold the same keys in English and Brazilian Portuguese', () => {
    expect([...PT.keys()].filter((k) => !EN.has(k)), 'in pt-BR only').toEqual([]);
    expect([...EN.keys()].filter((k) => !PT.has(k)), 'in en only').toEqual([]);
    expect(EN.size).toBeGreaterThan(10);
  });

  it('use the same tags in both languages, only values English gives, and no empty text', () => {
    // Portuguese may leave out a value English names (\"{{name}}\" once as \"{{lower}}\"), never use one English does not give.
    const tags = (s: string) => marks(s).filter((m) => m.startsWith('<'));
    const values = (s: string) => marks(s).filter((m) => !m.startsWith('<'));
    const bad = [...EN].filter(([k, v]) => JSON.stringify(tags(v)) !== JSON.stringify(tags(PT.get(k) ?? '')) || values(PT.get(k) ?? '').some((m) => !values(v).includes(m)));
    expect(bad.map(([k]) => k)).toEqual([]);
    expect([...EN, ...PT].filter(([, v]) => !v.trim()).map(([k]) => k)).toEqual([]);
  });

  it('name no tag after an HTML void element (the Trans parser drops the text inside <link>, <br>…)', () => {
    const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
    const bad = [...EN, ...PT].filter(([, v]) => [...v.matchAll(/<(\w+)>/g)].some((m) => VOID.has(m[1])));
    expect(bad.map(([k]) => k)).toEqual([]);
  });

  it('write the apostrophe one way, the straight one the platform\'s own sentences and the tests type', () => {
    expect([...EN, ...PT].filter(([, v]) => v.includes('\u2019')).map(([k, v]) => `${k}: ${v}`)).toEqual([]);
  });

  it('translate rather than copy the English', () => {
    const copied = [...EN].filter(([k, v]) => PT.get(k) === v && /\p{L}{3,}/u.test(v) && !SAME_OK.test(v) && !NAMES.has(v) && !TITLE_NAME.test(v) && !NAME_LIST.test(v));
    expect(copied.map(([k, v]) => `${k}: ${v}`)).toEqual([]);
  });
});
