import { useEffect, useRef, useState } from 'react';
import type { ModelDownload } from '../../../src-main/platform/contract/models';
import { api, messageOf } from '../../api';
import { useLoad } from '../../components/use-load';
import { formatBytes } from './format';

const ACTIVE = new Set(['queued', 'downloading', 'verifying']);

/** Small GGUF chat models to download, a field for any Hugging Face file URL, and the downloads with progress. */
export function ModelDownloads({ onReady }: { onReady(): void }) {
  const catalog = useLoad(() => api.models.catalog(), []);
  const [downloads, setDownloads] = useState<ModelDownload[]>([]);
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const completed = useRef(new Set<number>());

  const refresh = async () => {
    try {
      const list = await api.models.downloads();
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
      await api.models.download({ url: u });
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
      <h3 id="setup-download">Download a model</h3>
      <p className="muted small">Small chat models that run on this computer&apos;s CPU, offline once downloaded. Size and checksum are verified.</p>
      {error ? (
        <p className="note note-error small" role="alert">
          {error}
        </p>
      ) : null}
      <ul className="setup-catalog">
        {(catalog.data ?? []).map((m) => (
          <li key={m.file}>
            <div className="grow">
              <strong>{m.name}</strong> <span className="muted small">{formatBytes(m.size_bytes)} · {m.license}</span>
              <div className="small muted">{m.good_for}</div>
            </div>
            <button type="button" className="btn btn-small" disabled={taken.has(m.file)} onClick={() => void start(m.url)} aria-label={`Download ${m.name}`}>
              Download
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
          <span>Hugging Face file URL</span>
          <input type="url" placeholder="https://huggingface.co/org/repo/resolve/main/model.Q4_K_M.gguf" value={url} onChange={(e) => setUrl(e.target.value)} />
        </label>
        <button type="submit" className="btn btn-small" disabled={!url.trim()}>
          Download
        </button>
      </form>
      {downloads.length ? (
        <ul className="setup-progress" aria-label="Downloads">
          {downloads.map((d) => (
            <li key={d.id} data-testid="download">
              <div className="row">
                <code className="grow small">{d.file}</code>
                <span className={`badge ${d.status === 'completed' ? 'badge-ok' : d.status === 'failed' ? 'badge-error' : ''}`}>{d.status}</span>
              </div>
              {d.status !== 'completed' ? (
                <div className="progress" role="progressbar" aria-label={`${d.file} progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={d.total ? Math.round((d.bytes / d.total) * 100) : undefined}>
                  <div style={{ width: d.total ? `${Math.min(100, (d.bytes / d.total) * 100)}%` : '0%' }} />
                </div>
              ) : null}
              <div className="row small muted">
                <span className="grow">
                  {formatBytes(d.bytes)}
                  {d.total ? ` of ${formatBytes(d.total)}` : ''}
                </span>
                {d.status === 'downloading' || d.status === 'queued' ? (
                  <button type="button" className="btn btn-small" onClick={() => void act(() => api.models.pause(d.id))}>
                    Pause
                  </button>
                ) : null}
                {d.status === 'paused' || d.status === 'failed' ? (
                  <button type="button" className="btn btn-small" onClick={() => void act(() => api.models.resume(d.id))}>
                    Resume
                  </button>
                ) : null}
                <button type="button" className="btn btn-small btn-ghost" onClick={() => void act(() => api.models.removeDownload(d.id))} aria-label={`Delete ${d.file}`}>
                  Delete
                </button>
              </div>
              {d.error ? <p className="small note note-error">{d.error}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}
