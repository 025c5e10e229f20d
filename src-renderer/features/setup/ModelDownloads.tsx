import { useEffect, useRef, useState } from 'react';
import type { ModelDownload } from '../../../src-main/platform/contract/models';
import { api, messageOf, ops } from '../../api';
import { useLoad } from '../../components/use-load';
import { formatSize } from '../../components/format';
import { platformText, useT } from '../../i18n';
import type { CuratedModel } from '../../../src-main/platform/contract/models';

const ACTIVE = new Set(['queued', 'downloading', 'verifying']);

/** Small GGUF chat models to download, a field for any Hugging Face file URL, and the downloads with progress. */
export function ModelDownloads({ onReady }: { onReady(): void }) {
  const catalog = useLoad(() => api.call(ops.listModelCatalog, {}), []);
  const t = useT();
  // What each listed model is good for, in the app's words (by its file); a model the app does not know keeps the platform's.
  const goodFor = (m: CuratedModel) => (t('setup.goodFor', { returnObjects: true }) as Record<string, string>)[m.file.toLowerCase().replace(/[^a-z0-9]+/g, '_')] ?? platformText(m.good_for, () => '');
  const [downloads, setDownloads] = useState<ModelDownload[]>([]);
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const completed = useRef(new Set<number>());

  const refresh = async () => {
    try {
      const list = await api.call(ops.listModelDownloads, {});
      setDownloads(list);
      const fresh = list.filter((d) => d.status === 'completed' && !completed.current.has(d.id));
      for (const d of list) if (d.status === 'completed') completed.current.add(d.id);
      if (fresh.length) onReady();
    } catch (err) {
      setError(messageOf(err));
    }
  };

  useEffect(() => {
    void refresh();
  }, []);
  const active = downloads.some((d) => ACTIVE.has(d.status));
  useEffect(() => {
    if (!active) return;
    // Progress while a download runs (the platform keeps the live byte count).
    const t = setInterval(() => void refresh(), 1000);
    return () => clearInterval(t);
  }, [active]);

  const start = async (u: string) => {
    setError(null);
    try {
      await api.call(ops.createModelDownload, { body: { url: u } });
      setUrl('');
      await refresh();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (err) {
      setError(messageOf(err));
    }
    await refresh();
  };
  const taken = new Set(downloads.filter((d) => d.status !== 'failed').map((d) => d.file));

  return (
    <article className="card stack setup-card setup-downloads" aria-labelledby="setup-download">
      <h3 id="setup-download">{t('setup.downloads.title')}</h3>
      <p className="muted small">{t('setup.downloads.intro')}</p>
      {error ? (
        <p className="note note-error small" role="alert">
          {error}
        </p>
      ) : null}
      <ul className="setup-catalog">
        {(catalog.data ?? []).map((m) => (
          <li key={m.file}>
            <div className="grow">
              <strong>{m.name}</strong> <span className="muted small">{formatSize(m.size_bytes)} · {m.license}</span>
              <div className="small muted">{goodFor(m)}</div>
            </div>
            <button type="button" className="btn btn-small" disabled={taken.has(m.file)} onClick={() => void start(m.url)} aria-label={t('setup.downloads.downloadName', { name: m.name })}>
              {t('setup.downloads.download')}
            </button>
          </li>
        ))}
      </ul>
      <form
        className="row setup-url"
        onSubmit={(e) => {
          e.preventDefault();
          void start(url.trim());
        }}
      >
        <label className="field grow">
          <span>{t('setup.downloads.url')}</span>
          <input type="url" placeholder="https://huggingface.co/org/repo/resolve/main/model.Q4_K_M.gguf" value={url} onChange={(e) => setUrl(e.target.value)} />
        </label>
        <button type="submit" className="btn btn-small" disabled={!url.trim()}>
          {t('setup.downloads.download')}
        </button>
      </form>
      {downloads.length ? (
        <ul className="setup-progress" aria-label={t('setup.downloads.list')}>
          {downloads.map((d) => (
            <li key={d.id} data-testid="download">
              <div className="row">
                <code className="grow small">{d.file}</code>
                <span className={`badge ${d.status === 'completed' ? 'badge-ok' : d.status === 'failed' ? 'badge-error' : ''}`}>{t(`setup.downloads.status.${d.status}`)}</span>
              </div>
              {d.status !== 'completed' ? (
                <div className="progress" role="progressbar" aria-label={t('setup.downloads.progress', { file: d.file })} aria-valuemin={0} aria-valuemax={100} aria-valuenow={d.total ? Math.round((d.bytes / d.total) * 100) : undefined}>
                  <div style={{ width: d.total ? `${Math.min(100, (d.bytes / d.total) * 100)}%` : '0%' }} />
                </div>
              ) : null}
              <div className="row small muted">
                <span className="grow">
                  {d.total ? t('setup.downloads.of', { done: formatSize(d.bytes), total: formatSize(d.total) }) : formatSize(d.bytes)}
                </span>
                {d.status === 'downloading' || d.status === 'queued' ? (
                  <button type="button" className="btn btn-small" onClick={() => void act(() => api.call(ops.pauseModelDownload, { params: { id: d.id } }))}>
                    {t('setup.downloads.pause')}
                  </button>
                ) : null}
                {d.status === 'paused' || d.status === 'failed' ? (
                  <button type="button" className="btn btn-small" onClick={() => void act(() => api.call(ops.resumeModelDownload, { params: { id: d.id } }))}>
                    {t('setup.downloads.resume')}
                  </button>
                ) : null}
                <button type="button" className="btn btn-small btn-ghost" onClick={() => void act(() => api.call(ops.deleteModelDownload, { params: { id: d.id } }))} aria-label={t('setup.downloads.deleteName', { file: d.file })}>
                  {t('common.delete')}
                </button>
              </div>
              {d.error ? <p className="small note note-error">{platformText(d.error, () => t('setup.downloads.failed'))}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}
