/**
 * The rehype plugin behind citation chips, on hand-built trees: which [n] become marks, and that
 * code, pre and links keep their text untouched.
 */
import { describe, expect, it } from 'vitest';
import { rehypeCitations } from '../../src-renderer/components/citations';

type Node = { type: string; value?: string; tagName?: string; properties?: Record<string, unknown>; children?: Node[] };
const text = (value: string): Node => ({ type: 'text', value });
const el = (tagName: string, ...children: Node[]): Node => ({ type: 'element', tagName, properties: {}, children });
const run = (tree: Node) => {
  rehypeCitations()(tree as Parameters<ReturnType<typeof rehypeCitations>>[0]);
  return tree;
};
const marks = (n: Node): string[] =>
  n.type === 'element' && n.tagName === 'sup' && n.properties?.dataCite !== undefined ? [String(n.properties.dataCite)] : (n.children ?? []).flatMap(marks);
const plain = (n: Node): string => (n.type === 'text' ? (n.value ?? '') : (n.children ?? []).map(plain).join(''));

describe('rehypeCitations', () => {
  it('marks [n], [n, m] and [n][m], keeping the text around them and the text itself', () => {
    const tree = run(el('root', el('p', text('A [1]. B [2, 3]; C [1][2]. D [ 4 ] [x] [1000] [] end'))));
    expect(marks(tree)).toEqual(['1', '2,3', '1', '2']);
    expect(plain(tree)).toBe('A [1]. B [2, 3]; C [1][2]. D [ 4 ] [x] [1000] [] end');
  });

  it('leaves code, pre and links alone, and walks into other elements', () => {
    const tree = run(el('root', el('p', text('see '), el('code', text('[1]')), text(' and '), el('a', text('[2]')), el('strong', text('[3]'))), el('pre', el('code', text('x[1] = [2]')))));
    expect(marks(tree)).toEqual(['3']);
    expect(plain(tree)).toBe('see [1] and [2][3]x[1] = [2]');
  });

  it('leaves a text without marks as the same single node', () => {
    const p = el('p', text('nothing to cite here'));
    run(el('root', p));
    expect(p.children).toEqual([text('nothing to cite here')]);
  });
});
