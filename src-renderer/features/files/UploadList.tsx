import { formatBytes } from '../../components/format';
import { useFiles, type FileUpload } from '../../stores/files';
import { StatusBadge } from './StatusBadge';
import './uploads.css';
import { useT } from '../../i18n';

/**
 * Uploads of this session: bytes sent (or, where the transport hands them over in one message,
 * that they are being sent), then the platform's processing status until it settles. A failed
 * upload reads as failed, in red, with the reason, Retry and Remove; never as a full bar.
 */
export function UploadList() {
  const { uploads, uploaded, files, clearFinished, retry, dismiss } = useFiles();
  const t = useT();
  if (!uploads.length) return null;
  return (
    <div className="card" style={{ marginTop: 12 }} aria-label={t('files.uploads.heading')}>
      <div className="row">
        <h2 className="section-title grow" style={{ margin: 0 }}>
          {t('files.uploads.heading')}
        </h2>
        <button type="button" className="btn btn-small btn-ghost" onClick={clearFinished}>
          {t('files.uploads.clear')}
        </button>
      </div>
      <table className="table" style={{ border: 0 }}>
        <tbody>
          {uploads.map((u) => {
            const file = u.fileId !== null ? (files.find((f) => f.id === u.fileId) ?? uploaded[u.fileId]) : undefined;
            const failed = u.phase === 'failed';
            return (
              <tr key={u.key} data-testid="upload-row" data-name={u.name} data-status={failed ? 'failed' : (file?.status ?? u.phase)}>
                <td>{u.name}</td>
                <td className="muted small">{formatBytes(u.size)}</td>
                <td style={{ width: '30%' }}>{failed ? <span className="upload-error small" role="status">{u.error ?? t('files.uploads.failedDefault')}</span> : <UploadBar u={u} />}</td>
                <td>
                  {failed ? (
                    <span className="badge badge-error">{t('files.uploads.failed')}</span>
                  ) : u.phase === 'uploading' ? (
                    <span className="badge">{u.indeterminate ? t('files.uploads.sending') : t('files.uploads.uploading', { pct: pct(u) })}</span>
                  ) : (
                    <StatusBadge status={file?.status ?? 'waiting'} title={file?.error ?? undefined} />
                  )}
                </td>
                <td className="small">
                  {failed ? (
                    <span className="row" style={{ gap: 6, flexWrap: 'nowrap' }}>
                      {u.retriable ? (
                        <button type="button" className="btn btn-small" onClick={() => void retry(u.key)} aria-label={t('files.uploads.retryOf', { name: u.name })}>
                          {t('files.uploads.retry')}
                        </button>
                      ) : null}
                      <button type="button" className="btn btn-small btn-ghost" onClick={() => dismiss(u.key)} aria-label={t('files.uploads.removeOf', { name: u.name })}>
                        {t('files.uploads.remove')}
                      </button>
                    </span>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

const pct = (u: FileUpload) => (u.size ? Math.min(100, Math.floor((u.sent / u.size) * 100)) : 0);

/** Bytes sent so far; an unknown share (the desktop bridge) shows only that it runs, then full once sent. */
function UploadBar({ u }: { u: FileUpload }) {
  const t = useT();
  const done = u.phase === 'uploaded';
  const unknown = u.indeterminate && !done;
  const value = done ? 100 : pct(u);
  return (
    <div
      className={`progress${unknown ? ' progress-indeterminate' : ''}`}
      role="progressbar"
      aria-label={t('files.uploads.progressOf', { name: u.name })}
      aria-valuenow={unknown ? undefined : value}
      aria-valuemin={0}
      aria-valuemax={100}
    >
      <div style={unknown ? undefined : { width: `${value}%` }} />
    </div>
  );
}
