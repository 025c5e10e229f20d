import { useEffect, useState } from 'react';
import type { FileStatus } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { pickFiles } from '../../components/pick-files';
import { useUploads } from '../../stores/uploads';
import { UploadList } from './UploadList';
import { FileTable } from './FileTable';
import { Screen } from '../../components/Screen';

const STATUSES: FileStatus[] = ['waiting', 'in_progress', 'completed', 'failed'];
/** Typing pauses this long before the name search goes to the server (one request per pause, not per key). */
const SEARCH_DEBOUNCE_MS = 250;

export default function FilesScreen() {
  const { files, filesError, loadFiles, upload, loaded, filter, setFilter, hasMore, loadMore, loadingMore } = useUploads();
  const [name, setName] = useState(filter.q);

  useEffect(() => {
    void loadFiles();
  }, [loadFiles]);

  useEffect(() => {
    if (name === filter.q) return;
    const t = setTimeout(() => void setFilter({ q: name }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [name, filter.q, setFilter]);

  const filtered = !!filter.status || !!filter.q.trim();

  return (
    <Screen id="files" title="Files">
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
          Search files by name
        </label>
        <input id="file-filter" type="search" className="grow" placeholder="Search by name (press /)" maxLength={255} value={name} onChange={(e) => setName(e.target.value)} />
        <label className="field inline">
          <span>Status</span>
          <select data-testid="file-status-filter" value={filter.status} onChange={(e) => void setFilter({ status: e.target.value as FileStatus | '' })}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replace('_', ' ')}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNote error={filesError} what="Files" />
      {loaded && !filesError && !files.length ? <p className="muted">{filtered ? 'No files match.' : 'No files yet.'}</p> : null}
      {files.length ? <FileTable files={files} /> : null}
      {hasMore ? (
        <div className="row" style={{ marginTop: 8 }}>
          <span className="muted small">{files.length} shown</span>
          <button type="button" className="btn btn-small" disabled={loadingMore} onClick={() => void loadMore()}>
            {loadingMore ? 'Loading…' : 'Load more'}
          </button>
        </div>
      ) : null}
    </Screen>
  );
}
