import { useState } from 'react';
import { api } from '../../api';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import type { OcrLanguage, OcrSettings } from '../../../src-main/platform/contract/ocr';
import './ocr-panel.css';

const sourceText = (l: OcrLanguage) => (l.source === 'package' ? 'from its npm package' : 'from the model folder');

/**
 * The languages OCR reads images and scanned PDF pages in. English ships with the app; another
 * language needs its model file in the folder shown (or its npm package). A missing one stays
 * chosen and says what to do; OCR skips it until the file is there.
 */
export function OcrPanel() {
  const loaded = useLoad(() => api.settings.ocr(), []);
  const [saved, setSaved] = useState<OcrSettings | null>(null);
  const [adding, setAdding] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const s = saved ?? loaded.data;
  if (loaded.error && !s) return <ErrorNote error={loaded.error} what="OCR settings" />;
  if (!s) return <p className="muted">Loading…</p>;

  const save = async (languages: string[]) => {
    setBusy(true);
    try {
      setSaved(await api.settings.saveOcr(languages));
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const recheck = async () => {
    setSaved(null);
    await loaded.reload();
  };
  const chosen = s.available.filter((l) => l.chosen);
  const others = s.available.filter((l) => !l.chosen);
  return (
    <div className="stack" style={{ maxWidth: 760 }} data-testid="ocr-panel">
      <p className="muted small" style={{ margin: 0 }}>
        Images and PDF pages without a text layer are read by OCR in these languages, in this order. The choice applies to files processed from now on.
      </p>
      <ul className="ocr-langs" aria-label="OCR languages" data-testid="ocr-languages">
        {chosen.map((l, i) => (
          <li key={l.code} className="ocr-lang" data-code={l.code} data-status={l.status}>
            <div className="row">
              <strong>{l.name}</strong>
              <code className="small">{l.code}</code>
              {l.status === 'ready' ? <span className="badge badge-ok">Ready, {sourceText(l)}</span> : <span className="badge badge-warn">Model missing</span>}
              <span className="ocr-lang-actions">
                <button type="button" className="btn btn-small btn-ghost" disabled={busy || i === 0} aria-label={`Move ${l.name} up`} onClick={() => void save(swap(s.languages, i, i - 1))}>
                  ↑
                </button>
                <button type="button" className="btn btn-small btn-ghost" disabled={busy || chosen.length < 2} aria-label={`Remove ${l.name}`} onClick={() => void save(s.languages.filter((c) => c !== l.code))}>
                  Remove
                </button>
              </span>
            </div>
            {l.help ? (
              <p className="muted small" style={{ margin: '4px 0 0' }} data-testid="ocr-help">
                {l.help}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (adding) void save([...s.languages, adding]).then(() => setAdding(''));
        }}
      >
        <label htmlFor="ocr-add">Add a language</label>
        <select id="ocr-add" value={adding} onChange={(e) => setAdding(e.target.value)}>
          <option value="">Choose…</option>
          {others.map((l) => (
            <option key={l.code} value={l.code}>
              {l.name} ({l.code}){l.status === 'ready' ? ' · ready' : ''}
            </option>
          ))}
        </select>
        <button type="submit" className="btn btn-small" disabled={busy || !adding}>
          Add
        </button>
      </form>
      {error ? <ErrorNote error={error} what="OCR languages" /> : null}
      <dl className="stack" style={{ margin: 0 }}>
        <div>
          <dt className="muted small">Model folder</dt>
          <dd className="row" style={{ margin: 0 }}>
            <code data-testid="ocr-folder">{s.folder}</code>
            <CopyButton text={s.folder} label="Copy path" />
            <button type="button" className="btn btn-small" onClick={() => void recheck()}>
              Check again
            </button>
          </dd>
          <dd className="muted small" style={{ margin: 0 }}>
            Put a language&apos;s model here, named by its code (for example <code>deu.traineddata</code> or <code>deu.traineddata.gz</code>, from tesseract-ocr&apos;s tessdata_best or tessdata_fast), then Check again. Nothing is downloaded by the app.
          </dd>
        </div>
        <div>
          <dt className="muted small">OCR runs with</dt>
          <dd style={{ margin: 0 }}>
            <code data-testid="ocr-tesseract">{s.tesseract}</code>
          </dd>
        </div>
      </dl>
    </div>
  );
}

function swap(list: string[], a: number, b: number): string[] {
  const out = [...list];
  [out[a], out[b]] = [out[b], out[a]];
  return out;
}
