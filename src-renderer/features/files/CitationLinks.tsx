import { useState } from 'react';
import { api } from '../../api';
import { useLoad } from '../../components/use-load';
import { FileViewer } from './FileViewer';

/**
 * The passages an answer cited as [n], as links under it: each opens the file viewer on that
 * passage, highlighted. Built from the execution's ext `context` (passages with n and cited).
 */
export function CitationLinks({ responseId, output }: { responseId: number; output: string }) {
  const { data } = useLoad(() => api.executions.get(responseId), [responseId, output]);
  const [open, setOpen] = useState<{ fileId: number; position: number | null } | null>(null);
  const cited = (data?.context?.passages ?? []).filter((p) => p.cited && p.n !== undefined);
  if (!cited.length) return null;
  return (
    <nav className="citations" aria-label="Cited passages" data-testid="citations">
      <span className="muted">Sources:</span>
      {cited.map((p) => (
        <button
          key={p.n}
          type="button"
          className="citation-link"
          data-testid="citation-link"
          title={p.text.slice(0, 200)}
          onClick={() => setOpen({ fileId: p.file_id, position: p.position ?? null })}
        >
          [{p.n}] {p.filename ?? `File ${p.file_id}`}
          {p.position !== undefined ? `, passage ${p.position + 1}` : ''}
        </button>
      ))}
      {open ? <FileViewer fileId={open.fileId} highlight={open.position} onClose={() => setOpen(null)} /> : null}
    </nav>
  );
}
