import { whereOf, type CitedPassage } from '../../components/citations';
import { useT } from '../../i18n';

/**
 * The passages an answer cited as [n], as a "Sources" row under it: each opens the file viewer
 * on that passage, highlighted (the [n] marks in the answer text do the same).
 */
export function CitationLinks({ cited, onOpen }: { cited: CitedPassage[]; onOpen(p: CitedPassage): void }) {
  const t = useT();
  if (!cited.length) return null;
  return (
    <nav className="citations" aria-label={t('files.cited')} data-testid="citations">
      <span className="muted">{t('files.sources')}</span>
      {cited.map((p) => (
        <button key={p.n} type="button" className="citation-link" data-testid="citation-link" title={p.text.slice(0, 200)} onClick={() => onOpen(p)}>
          [{p.n}] {whereOf(p)}
        </button>
      ))}
    </nav>
  );
}
