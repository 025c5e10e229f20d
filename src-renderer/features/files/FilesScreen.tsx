import { useEffect, useState } from 'react';
import { ErrorNote } from '../../components/ErrorNote';
import { pickFiles } from '../../components/pick-files';
import { useUploads } from '../../stores/uploads';
import { UploadList } from './UploadList';
import { FileTable } from './FileTable';

export default function FilesScreen() {
  const { files, filesError, loadFiles, upload, loaded } = useUploads();
  const [filter, setFilter] = useState('');
  const [status, setStatus] = useState('');

  useEffect(() => {
    void loadFiles();
  }, [loadFiles]);

  const needle = filter.trim().toLowerCase();
  const shown = files.filter((f) => (!needle || f.filename.toLowerCase().includes(needle)) && (!status || f.status === status));
  const statuses = [...new Set(files.map((f) => f.status))].sort();

  return (
    <section className="screen" aria-labelledby="files-title">
      <h1 id="files-title" tabIndex={-1}>
        Files
      </h1>
      <div className="card drop-hint" data-testid="drop-hint">
        <div className="row">
          <div className="grow">
            <strong>Drop files anywhere in the window</strong> to upload them, several at once. They are processed (text extracted and indexed) so agents can
            use them.
          </div>
          <button type="button" className="btn btn-primary" onClick={() => void pickFiles().then((f) => (f.length ? upload(f) : undefined))}>
            Choose files…
          </button>
        </div>
      </div>
      <UploadList />
      <div className="row" style={{ margin: '16px 0 8px' }}>
        <label className="sr-only" htmlFor="file-filter">
          Filter files
        </label>
        <input id="file-filter" type="search" className="grow" placeholder="Filter by name (press /)" value={filter} onChange={(e) => setFilter(e.target.value)} />
        <label className="field inline">
          <span>Status</span>
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNote error={filesError} what="Files" />
      {loaded && !filesError && !files.length ? <p className="muted">No files yet.</p> : null}
      {shown.length ? <FileTable files={shown} /> : null}
    </section>
  );
}
