import { createContext, useContext, type ComponentProps, type ReactNode } from 'react';
import './citations.css';
import { t, useT } from '../i18n';

/** A passage of an execution's context that an answer may cite as [n]. */
export interface CitedPassage {
  n: number;
  file_id: number;
  filename: string | null;
  position?: number;
  text: string;
}

export interface Citations {
  byN: ReadonlyMap<number, CitedPassage>;
  open(p: CitedPassage): void;
}

const NONE: Citations = { byN: new Map(), open: () => undefined };
const CitationContext = createContext<Citations>(NONE);
export const CitationProvider = CitationContext.Provider;

/** "todo.txt, passage 2": where a citation points, for its tooltip and the sources row. */
export function whereOf(p: CitedPassage): string {
  const file = p.filename ?? t('components.citation.file', { id: p.file_id });
  return p.position !== undefined ? t('components.citation.passage', { file, n: p.position + 1 }) : file;
}

// The minimal hast shapes the plugin touches (markdown's HTML syntax tree).
interface HText {
  type: 'text';
  value: string;
}
interface HElement {
  type: 'element';
  tagName: string;
  properties: Record<string, unknown>;
  children: HNode[];
}
type HNode = HText | HElement | { type: string; children?: HNode[] };

/** Same shape the engine marks as cited: [1], [1, 3]; [1][2] is two matches. */
const CITE = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;
/** Code, links and controls keep their text as written: a [1] there is not a citation. */
const SKIP = new Set(['code', 'pre', 'a', 'button', 'kbd', 'samp', 'script', 'style', 'textarea']);

function splitText(value: string): HNode[] {
  const out: HNode[] = [];
  let at = 0;
  for (const m of value.matchAll(CITE)) {
    if (m.index > at) out.push({ type: 'text', value: value.slice(at, m.index) });
    const nums = m[1].split(',').map((s) => s.trim());
    out.push({ type: 'element', tagName: 'sup', properties: { dataCite: nums.join(','), className: ['cite'] }, children: [{ type: 'text', value: m[0] }] });
    at = m.index + m[0].length;
  }
  if (at === 0) return [{ type: 'text', value }];
  if (at < value.length) out.push({ type: 'text', value: value.slice(at) });
  return out;
}

function walk(node: HNode): void {
  if (!('children' in node) || !node.children) return;
  const out: HNode[] = [];
  for (const child of node.children) {
    if (child.type === 'text' && 'value' in child) out.push(...splitText(child.value));
    else {
      if (!(child.type === 'element' && 'tagName' in child && SKIP.has(child.tagName))) walk(child);
      out.push(child);
    }
  }
  node.children = out;
}

/**
 * A rehype plugin (it runs on the rendered tree, after sanitizing): every [n] outside code and
 * links becomes a <sup data-cite="n"> that `CiteSup` turns into a chip when the answer's context
 * has passage n, and back into the plain text otherwise. Markdown syntax is never rewritten.
 */
export function rehypeCitations() {
  return (tree: HNode) => walk(tree);
}

/** The `sup` renderer: citation marks become chips; any other <sup> renders as `fallback` does. */
export function citeSup<P extends ComponentProps<'sup'>>(fallback: (p: P) => ReactNode) {
  return function CiteSup(props: P & { 'data-cite'?: string }) {
    const nums = props['data-cite'];
    if (nums === undefined) return fallback(props);
    return <CitationMark nums={nums.split(',').map(Number)} raw={`[${nums.split(',').join(', ')}]`} original={props.children} />;
  };
}

function CitationMark({ nums, raw, original }: { nums: number[]; raw: string; original: ReactNode }) {
  const { byN, open } = useContext(CitationContext);
  const tr = useT();
  // Nothing known (still loading, no context, a number the model made up): the text as written.
  if (!nums.some((n) => byN.has(n))) return <>{original ?? raw}</>;
  return (
    <span className="cite-group">
      {nums.map((n, i) => {
        const p = byN.get(n);
        if (!p) return <span key={i}>[{n}]</span>;
        const where = whereOf(p);
        return (
          <button key={i} type="button" className="cite-chip" data-testid="cite-chip" data-n={n} title={where} aria-label={tr('components.citation.source', { n, where })} onClick={() => open(p)}>
            {n}
          </button>
        );
      })}
    </span>
  );
}
