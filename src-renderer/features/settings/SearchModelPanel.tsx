import { useEffect, useState } from 'react';
import { api, ops, type CallInput } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { formatNumber, formatSize } from '../../components/format';
import { useT } from '../../i18n';
import type { CuratedModel, ModelDownload } from '../../../src-main/platform/contract/models';
import type { EmbeddingSettings } from '../../../src-main/platform/contract/retrieval';

/**
 * The search model (embedder) that reads files and memories, and the optional reranker. The
 * multilingual models come from the model catalog and download like chat models; choosing one
 * re-reads everything in the background, with its progress shown here.
 */
export function SearchModelPanel() {
  const t = useT();
  const loaded = useLoad(() => api.call(ops.getEmbeddingSettings, {}), []);
  const catalog = useLoad(() => api.call(ops.listModelCatalog, {}), []);
  const [view, setView] = useState<EmbeddingSettings | null>(null);
  const [downloads, setDownloads] = useState<ModelDownload[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const s = view ?? loaded.data;

  const refresh = async () => {
    try {
      setDownloads(await api.call(ops.listModelDownloads, {}));
      setView(await api.call(ops.getEmbeddingSettings, {}));
    } catch (err) {
      setError(err);
    }
  };
  useEffect(() => {
    void refresh();
  }, []);
  const running = s?.status === 'embedding' || downloads.some((d) => d.status === 'queued' || d.status === 'downloading' || d.status === 'verifying');
  useEffect(() => {
    if (!running) return;
    // Progress of the re-reading and of the downloads (the platform keeps the counts).
    const timer = setInterval(() => void refresh(), 1000);
    return () => clearInterval(timer);
  }, [running]);

  if (loaded.error && !s) return <ErrorNote error={loaded.error} what={t('searchModels.what')} />;
  if (!s) return <p className="muted">{t('common.loading')}</p>;

  const save = async (body: CallInput<typeof ops.updateEmbeddingSettings>['body']) => {
    setBusy(true);
    try {
      setView(await api.call(ops.updateEmbeddingSettings, { body }));
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      setError(null);
    } catch (err) {
      setError(err);
    }
    await refresh();
  };
  const downloadOf = (m: CuratedModel) => downloads.find((d) => d.file === m.file && d.status !== 'failed');
  const have = (m: CuratedModel) => downloadOf(m)?.status === 'completed';
  const keep = { provider: s.provider, ...(s.provider === 'builtin' ? {} : { model: s.model }), ...(s.base_url ? { base_url: s.base_url } : {}) };
  const embedders = (catalog.data ?? []).filter((m) => m.kind === 'embedding');
  const reranker = (catalog.data ?? []).find((m) => m.kind === 'reranker');
  const percent = (d: ModelDownload) => formatNumber(d.total ? d.bytes / d.total : 0, { style: 'percent' });

  const action = (m: CuratedModel) => {
    const d = downloadOf(m);
    if (d && d.status !== 'completed') return <span className="muted small">{t('searchModels.downloading', { percent: percent(d) })}</span>;
    if (!d)
      return (
        <button type="button" className="btn btn-small" onClick={() => void act(() => api.call(ops.createModelDownload, { body: { url: m.url } }))}>
          {t('searchModels.download')}
        </button>
      );
    return null;
  };

  return (
    <div className="stack" style={{ maxWidth: 760 }} data-testid="search-model-panel">
      <p className="muted small" style={{ margin: 0 }}>
        {t('searchModels.intro')}
      </p>
      {error ? <ErrorNote error={error} what={t('searchModels.what')} /> : null}
      <article className="card stack">
        <div className="row">
          <strong className="grow">
            {t('searchModels.current')}: {s.provider === 'builtin' ? t('searchModels.builtin') : s.model}
          </strong>
          {s.provider !== 'builtin' ? (
            <button type="button" className="btn btn-small" disabled={busy} onClick={() => void save({ provider: 'builtin' })}>
              {t('searchModels.useBuiltin')}
            </button>
          ) : null}
        </div>
        {s.provider === 'builtin' ? (
          <p className="note small" style={{ margin: 0 }} data-testid="english-best">
            {t('searchModels.englishBest')}
          </p>
        ) : null}
        <p className={`small ${s.status === 'error' ? 'note note-error' : 'muted'}`} style={{ margin: 0 }} role="status">
          {s.status === 'embedding' ? t('searchModels.status.embedding', { embedded: formatNumber(s.embedded), total: formatNumber(s.total) }) : t(`searchModels.status.${s.status}`)}
        </p>
        {s.status === 'embedding' ? (
          <div className="progress" role="progressbar" aria-label={t('searchModels.progress')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(s.progress * 100)}>
            <div style={{ width: `${Math.min(100, s.progress * 100)}%` }} />
          </div>
        ) : null}
      </article>
      <h3 style={{ margin: 0 }}>{t('searchModels.models')}</h3>
      <ul className="setup-catalog">
        {embedders.map((m) => (
          <li key={m.file} className="row">
            <div className="grow">
              <strong>{m.name}</strong>{' '}
              <span className="muted small">{t('searchModels.sizeLicence', { size: formatSize(m.size_bytes), license: m.license })}</span>
            </div>
            {s.provider === 'gguf' && s.model === m.file ? (
              <span className="badge badge-ok">{t('searchModels.inUse')}</span>
            ) : have(m) ? (
              <button type="button" className="btn btn-small btn-primary" disabled={busy} onClick={() => void save({ provider: 'gguf', model: m.file })}>
                {t('searchModels.use')}
              </button>
            ) : (
              action(m)
            )}
          </li>
        ))}
      </ul>
      {reranker ? (
        <article className="card stack">
          <h3 style={{ margin: 0 }}>{t('searchModels.rerankHeading')}</h3>
          <p className="muted small" style={{ margin: 0 }}>
            {t('searchModels.rerankIntro')}
          </p>
          <div className="row">
            <label className="grow row">
              <input type="checkbox" checked={s.reranker === reranker.file} disabled={busy || !have(reranker)} onChange={(e) => void save({ ...keep, reranker: e.target.checked ? reranker.file : null })} />
              {t('searchModels.rerankOn', { name: reranker.name })}
            </label>
            <span className="muted small">{t('searchModels.sizeLicence', { size: formatSize(reranker.size_bytes), license: reranker.license })}</span>
            {action(reranker)}
          </div>
          {!have(reranker) ? <p className="muted small" style={{ margin: 0 }}>{t('searchModels.rerankNeedsDownload')}</p> : null}
        </article>
      ) : null}
    </div>
  );
}
