import { formatBytes } from '../../components/format';
import { useUploads } from '../../stores/uploads';
import { StatusBadge } from './StatusBadge';

/** Uploads of this session: bytes sent, then the platform's processing status until it settles. */
export function UploadList() {
  const { uploads, uploaded, files, clearFinished } = useUploads();
  if (!uploads.length) return null;
  return (
    <div className="card" style={{ marginTop: 12 }} aria-label="Uploads">
      <div className="row">
        <h2 className="section-title grow" style={{ margin: 0 }}>
          Uploads
        </h2>
        <button type="button" className="btn btn-small btn-ghost" onClick={clearFinished}>
          Clear finished
        </button>
      </div>
      <table className="table" style={{ border: 0 }}>
        <tbody>
          {uploads.map((u) => {
            const file = u.fileId !== null ? (files.find((f) => f.id === u.fileId) ?? uploaded[u.fileId]) : undefined;
            const pct = u.size ? Math.min(100, Math.round((u.sent / u.size) * 100)) : u.phase === 'uploading' ? 0 : 100;
            return (
              <tr key={u.key} data-testid="upload-row" data-name={u.name} data-status={u.phase === 'failed' ? 'failed' : (file?.status ?? u.phase)}>
                <td>{u.name}</td>
                <td className="muted small">{formatBytes(u.size)}</td>
                <td style={{ width: '30%' }}>
                  <div className="progress" role="progressbar" aria-label={`Upload of ${u.name}`} aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100}>
                    <div style={{ width: `${pct}%` }} />
                  </div>
                </td>
                <td>{u.phase === 'failed' ? <span className="badge badge-error" title={u.error}>upload failed</span> : u.phase === 'uploading' ? <span className="badge">uploading {pct}%</span> : <StatusBadge status={file?.status ?? 'waiting'} />}</td>
                <td className="small">{u.error ?? ''}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
