import { useState } from 'react';
import { api, ops } from '../../api';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import type { OcrLanguage, OcrSettings } from '../../../src-main/platform/contract/ocr';
import './ocr-panel.css';
import { Trans, languageName, platformText, t, useT } from '../../i18n';

const sourceText = (l: OcrLanguage) => (l.source === 'package' ? t('settings.ocr.fromPackage') : t('settings.ocr.fromFolder'));
// Tesseract's codes are ISO 639-2 (deu, por), with a variant after _ (chi_sim) that Intl does not name.
// Shown on its own, a name starts with a capital ("Inglês"; Portuguese writes it lower case in a sentence).
const nameOf = (l: OcrLanguage) => {
  const name = l.code.includes('_') ? l.name : languageName(l.code, l.name);
  return name.charAt(0).toLocaleUpperCase() + name.slice(1);
};

/**
 * The languages OCR reads images and scanned PDF pages in. English ships with the app; another
 * language needs its model file in the folder shown (or its npm package). A missing one stays
 * chosen and says what to do; OCR skips it until the file is there.
 */
export function OcrPanel() {
  const loaded = useLoad(() => api.call(ops.getOcrSettings, {}), []);
  const tr = useT();
  const [saved, setSaved] = useState<OcrSettings | null>(null);
  const [adding, setAdding] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const s = saved ?? loaded.data;
  if (loaded.error && !s) return <ErrorNote error={loaded.error} what={tr('settings.ocr.what')} />;
  if (!s) return <p className="muted">{tr('common.loading')}</p>;

  const save = async (languages: string[]) => {
    setBusy(true);
    try {
      setSaved(await api.call(ops.updateOcrSettings, { body: { languages } }));
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
        {tr('settings.ocr.intro')}
      </p>
      <ul className="ocr-langs" aria-label={tr('settings.ocr.languages')} data-testid="ocr-languages">
        {chosen.map((l, i) => (
          <li key={l.code} className="ocr-lang" data-code={l.code} data-status={l.status}>
            <div className="row">
              <strong>{nameOf(l)}</strong>
              <code className="small">{l.code}</code>
              {l.status === 'ready' ? <span className="badge badge-ok">{tr('settings.ocr.ready', { source: sourceText(l) })}</span> : <span className="badge badge-warn">{tr('settings.ocr.missing')}</span>}
              <span className="ocr-lang-actions">
                <button type="button" className="btn btn-small btn-ghost" disabled={busy || i === 0} aria-label={tr('settings.ocr.moveUp', { name: nameOf(l) })} onClick={() => void save(swap(s.languages, i, i - 1))}>
                  ↑
                </button>
                <button type="button" className="btn btn-small btn-ghost" disabled={busy || chosen.length < 2} aria-label={tr('settings.ocr.remove', { name: nameOf(l) })} onClick={() => void save(s.languages.filter((c) => c !== l.code))}>
                  {tr('common.remove')}
                </button>
              </span>
            </div>
            {l.help ? (
              <p className="muted small" style={{ margin: '4px 0 0' }} data-testid="ocr-help">
                {platformText(l.help, () => tr('settings.ocr.missingHelp', { file: `${l.code}.traineddata` }))}
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
        <label htmlFor="ocr-add">{tr('settings.ocr.add')}</label>
        <select id="ocr-add" value={adding} onChange={(e) => setAdding(e.target.value)}>
          <option value="">{tr('settings.routing.choose')}</option>
          {others.map((l) => (
            <option key={l.code} value={l.code}>
              {l.status === 'ready' ? tr('settings.ocr.optionReady', { name: nameOf(l), code: l.code }) : tr('settings.ocr.option', { name: nameOf(l), code: l.code })}
            </option>
          ))}
        </select>
        <button type="submit" className="btn btn-small" disabled={busy || !adding}>
          {tr('settings.ocr.addButton')}
        </button>
      </form>
      {error ? <ErrorNote error={error} what={tr('settings.ocr.languages')} /> : null}
      <dl className="stack" style={{ margin: 0 }}>
        <div>
          <dt className="muted small">{tr('settings.ocr.folder')}</dt>
          <dd className="row" style={{ margin: 0 }}>
            <code data-testid="ocr-folder">{s.folder}</code>
            <CopyButton text={s.folder} label={tr('settings.data.copyPath')} />
            <button type="button" className="btn btn-small" onClick={() => void recheck()}>
              {tr('settings.ocr.checkAgain')}
            </button>
          </dd>
          <dd className="muted small" style={{ margin: 0 }}>
            <Trans i18nKey="settings.ocr.folderHelp" components={{ code: <code /> }} />
          </dd>
        </div>
        <div>
          <dt className="muted small">{tr('settings.ocr.runsWith')}</dt>
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
