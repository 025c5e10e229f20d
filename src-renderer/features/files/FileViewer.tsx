import { useEffect, useId, useRef, useState } from 'react';
import { api, ops, type Answer } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { formatNumber } from '../../components/format';
import { useLoad } from '../../components/use-load';
import { useModalDialog } from '../../components/use-modal';
import { humanize } from '../chat/option-words';
import { useT } from '../../i18n';
import './file-viewer.css';

type View = 'text' | 'passages';
/** How much of a file's text the preview reads at once. */
const PREVIEW_CHARS = 200_000;

/**
 * A file as the model sees it: the text read from it (a preview from the Files screen), its
 * passages one by one (what retrieval hands the model and answers cite), what processing found
 * (pages read by OCR and such), and, when opened from a citation, the cited passage highlighted
 * and scrolled into view. A modal <dialog>: Esc or Close returns focus to its opener.
 */
export function FileViewer({ fileId, highlight, onClose, initial }: { fileId: number; highlight?: number | null; onClose(): void; initial?: View }) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const tabsId = useId();
  const cited = highlight !== null && highlight !== undefined;
  const [view, setView] = useState<View>(initial ?? (cited ? 'passages' : 'text'));
  const file = useLoad(() => api.call(ops.getFile, { params: { fileId } }), [fileId]);
  const text = useLoad(() => (view === 'text' ? api.call(ops.getFileText, { params: { fileId }, query: { max_chars: PREVIEW_CHARS } }) : Promise.resolve(null)), [fileId, view]);
  const page = useLoad(() => (view === 'passages' ? api.call(ops.listFilePassages, { params: { fileId }, query: { limit: 500 } }) : Promise.resolve(null)), [fileId, view]);
  // Open while mounted; closing unmounts it, and focus goes back to the citation or button that opened it.
  useModalDialog(ref, true);
  useEffect(() => {
    if (!cited || !page.data) return;
    ref.current?.querySelector(`[data-ordinal="${highlight}"]`)?.scrollIntoView({ block: 'center' });
  }, [cited, highlight, page.data]);
  const meta = file.data?.metadata ?? null;
  const ocrPages = Array.isArray(meta?.ocr_pages) ? (meta.ocr_pages as number[]) : [];
  const count = file.data?.passages ?? page.data?.total ?? 0;
  const tab = (id: View, label: string) => (
    <button
      type="button"
      role="tab"
      id={`${tabsId}-${id}`}
      className="tab"
      aria-selected={view === id}
      aria-controls={`${tabsId}-panel`}
      tabIndex={view === id ? 0 : -1}
      onClick={() => setView(id)}
      onKeyDown={(e) => {
        // Arrow keys move between the two tabs, as in any tab list.
        if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
          e.preventDefault();
          const next: View = id === 'text' ? 'passages' : 'text';
          setView(next);
          document.getElementById(`${tabsId}-${next}`)?.focus();
        }
      }}
      data-testid={`viewer-tab-${id}`}
    >
      {label}
    </button>
  );

  return (
    <dialog ref={ref} className="dialog file-viewer" aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), onClose())} data-testid="file-viewer">
      <header className="file-viewer-head">
        <h2 id={titleId}>{file.data?.filename ?? t('files.viewer.fallbackTitle')}</h2>
        <button type="button" className="btn btn-small" onClick={onClose} autoFocus>
          {t('files.viewer.close')}
        </button>
      </header>
      {file.error ? <ErrorNote error={file.error} what={t('files.viewer.fallbackTitle')} /> : null}
      {meta ? (
        <dl className="file-viewer-meta" data-testid="file-meta" aria-label={t('files.viewer.about')}>
          {Object.entries(meta)
            .filter(([, v]) => typeof v !== 'object' || Array.isArray(v))
            .map(([k, v]) => (
              <div key={k}>
                <dt>{k === 'ocr_pages' ? t('files.viewer.ocrPages') : humanize(k)}</dt>
                <dd>{Array.isArray(v) ? v.join(', ') : typeof v === 'number' ? formatNumber(v) : String(v)}</dd>
              </div>
            ))}
        </dl>
      ) : null}
      {ocrPages.length ? <p className="muted small">{t('files.viewer.ocr', { pages: ocrPages.join(', ') })}</p> : null}
      <div className="tabs file-viewer-tabs" role="tablist" aria-label={t('files.viewer.views')}>
        {tab('text', t('files.viewer.text'))}
        {tab('passages', t('files.viewer.passages', { count }))}
      </div>
      <div id={`${tabsId}-panel`} role="tabpanel" aria-labelledby={`${tabsId}-${view}`} className="file-viewer-text" tabIndex={0}>
        {view === 'text' ? <TextView state={text} status={file.data?.status} error={file.data?.error} /> : null}
        {view === 'passages' ? (
          <>
            {page.error ? <ErrorNote error={page.error} what={t('files.viewer.passages', { count })} /> : null}
            {page.loading && !page.data ? <p className="muted small">{t('files.viewer.loadingText')}</p> : null}
            {page.data ? (
              <>
                <p className="muted small">
                  {page.data.total > page.data.passages.length
                    ? t('files.viewer.firstShown', { total: formatNumber(page.data.total), shown: formatNumber(page.data.passages.length) })
                    : t('files.viewer.passagesHelp')}
                </p>
                {page.data.passages.map((p) => (
                  <section
                    key={p.ordinal}
                    data-ordinal={p.ordinal}
                    className={p.ordinal === highlight ? 'passage passage-cited' : 'passage'}
                    aria-current={p.ordinal === highlight ? 'true' : undefined}
                    data-testid={p.ordinal === highlight ? 'cited-passage' : 'passage'}
                  >
                    <span className="passage-n muted small">{t('files.viewer.passage', { n: p.ordinal + 1 })}</span>
                    <p>{p.text}</p>
                  </section>
                ))}
              </>
            ) : null}
          </>
        ) : null}
      </div>
    </dialog>
  );
}

/** The whole text read from the file, or why there is none yet. */
function TextView({ state, status, error }: { state: { data: Answer<typeof ops.getFileText> | null; error: unknown; loading: boolean }; status?: string; error?: string }) {
  const t = useT();
  if (state.error) return <ErrorNote error={state.error} what={t('files.viewer.text')} />;
  if (!state.data) return <p className="muted small">{t('files.viewer.loadingText')}</p>;
  if (!state.data.text) {
    if (status === 'failed') return <p className="note note-error small">{t('files.viewer.failedRead', { reason: error ?? '' })}</p>;
    return <p className="muted small">{status === 'waiting' || status === 'in_progress' ? t('files.viewer.notRead') : t('files.viewer.noText')}</p>;
  }
  return (
    <>
      <p className="muted small">
        {state.data.truncated ? t('files.viewer.truncated', { chars: formatNumber(state.data.text.length) }) : t('files.viewer.chars', { chars: formatNumber(state.data.text.length) })}
      </p>
      <div className="file-text" data-testid="file-text">
        {state.data.text}
      </div>
    </>
  );
}
