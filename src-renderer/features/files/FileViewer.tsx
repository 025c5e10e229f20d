import { useEffect, useId, useRef } from 'react';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { useModalDialog } from '../../components/use-modal';
import './file-viewer.css';

/**
 * A file as the model sees it: its extracted text passage by passage, what processing found
 * (metadata, including the pages read by OCR), and, when opened from a citation, the cited
 * passage highlighted and scrolled into view. A modal <dialog>: Esc or Close returns focus to its opener.
 */
export function FileViewer({ fileId, highlight, onClose }: { fileId: number; highlight?: number | null; onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const file = useLoad(() => api.files.get(fileId), [fileId]);
  const page = useLoad(() => api.files.passages(fileId), [fileId]);
  // Open while mounted; closing unmounts it, and focus goes back to the citation or button that opened it.
  useModalDialog(ref, true);
  useEffect(() => {
    if (highlight === null || highlight === undefined || !page.data) return;
    ref.current?.querySelector(`[data-ordinal="${highlight}"]`)?.scrollIntoView({ block: 'center' });
  }, [highlight, page.data]);
  const meta = file.data?.metadata ?? null;
  const ocrPages = Array.isArray(meta?.ocr_pages) ? (meta.ocr_pages as number[]) : [];
  return (
    <dialog ref={ref} className="dialog file-viewer" aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), onClose())} data-testid="file-viewer">
      <header className="file-viewer-head">
        <h2 id={titleId}>{file.data?.filename ?? `File ${fileId}`}</h2>
        <button type="button" className="btn btn-small" onClick={onClose} autoFocus>
          Close
        </button>
      </header>
      {file.error ? <ErrorNote error={file.error} what="File" /> : null}
      {meta ? (
        <dl className="file-viewer-meta" data-testid="file-meta">
          {Object.entries(meta)
            .filter(([, v]) => typeof v !== 'object' || Array.isArray(v))
            .map(([k, v]) => (
              <div key={k}>
                <dt>{k === 'ocr_pages' ? 'Read by OCR (pages)' : k}</dt>
                <dd>{Array.isArray(v) ? v.join(', ') : String(v)}</dd>
              </div>
            ))}
        </dl>
      ) : null}
      {ocrPages.length ? <p className="muted small">Text of page {ocrPages.join(', ')} was read from the image by OCR and may contain mistakes.</p> : null}
      {page.error ? <ErrorNote error={page.error} what="Passages" /> : null}
      {page.loading && !page.data ? <p className="muted small">Loading the text…</p> : null}
      {page.data ? (
        <div className="file-viewer-text">
          <p className="muted small">
            {page.data.total} passage{page.data.total === 1 ? '' : 's'}
            {page.data.total > page.data.passages.length ? ` (first ${page.data.passages.length} shown)` : ''}
          </p>
          {page.data.passages.map((p) => (
            <section
              key={p.ordinal}
              data-ordinal={p.ordinal}
              className={p.ordinal === highlight ? 'passage passage-cited' : 'passage'}
              aria-current={p.ordinal === highlight ? 'true' : undefined}
              data-testid={p.ordinal === highlight ? 'cited-passage' : undefined}
            >
              <span className="passage-n muted small">Passage {p.ordinal + 1}</span>
              <p>{p.text}</p>
            </section>
          ))}
        </div>
      ) : null}
    </dialog>
  );
}
