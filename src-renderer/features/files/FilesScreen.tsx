import { useEffect, useState } from 'react';
import type { FileStatus } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { pickFiles } from '../../components/pick-files';
import { useFiles } from '../../stores/files';
import { uploadLimit } from '../../stores/uploads';
import { api, ops } from '../../api';
import { formatBytes } from '../../components/format';
import { useT } from '../../i18n';
import { UploadList } from './UploadList';
import { FileTable } from './FileTable';
import { Screen } from '../../components/Screen';

const STATUSES: FileStatus[] = ['waiting', 'in_progress', 'completed', 'failed'];
/** Typing pauses this long before the name search goes to the server (one request per pause, not per key). */
const SEARCH_DEBOUNCE_MS = 250;

export default function FilesScreen() {
  const { files, filesError, loadFiles, upload, loaded, filter, setFilter, hasMore, loadMore, loadingMore } = useFiles();
  const [name, setName] = useState(filter.q);
  const [limit, setLimit] = useState<number | null>(uploadLimit.get());
  const t = useT();

  // The limit is said before a file is chosen, and checked before one is sent.
  useEffect(() => {
    api.call(ops.getApp, {}).then(
      (a) => {
        uploadLimit.set(a.max_upload_bytes);
        setLimit(a.max_upload_bytes);
      },
      () => undefined,
    );
  }, []);

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
    <Screen id="files" title={t('files.title')}>
      <div className="card drop-hint" data-testid="drop-hint">
        <div className="row">
          <div className="grow">
            <strong>{t('files.dropTitle')}</strong> {t('files.dropBody')}
            {limit !== null ? <span data-testid="upload-limit"> {t('files.limit', { size: formatBytes(limit) })}</span> : null}
          </div>
          <button type="button" className="btn btn-primary" onClick={() => void pickFiles().then((f) => (f.length ? upload(f) : undefined))}>
            {t('files.choose')}
          </button>
        </div>
      </div>
      <UploadList />
      <div className="row" style={{ margin: '16px 0 8px' }}>
        <label className="sr-only" htmlFor="file-filter">
          {t('files.searchLabel')}
        </label>
        <input id="file-filter" type="search" className="grow" placeholder={t('files.searchPlaceholder')} maxLength={255} value={name} onChange={(e) => setName(e.target.value)} />
        <label className="field inline">
          <span>{t('files.statusFilter')}</span>
          <select data-testid="file-status-filter" value={filter.status} onChange={(e) => void setFilter({ status: e.target.value as FileStatus | '' })}>
            <option value="">{t('files.any')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`files.status.${s}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNote error={filesError} what={t('files.title')} />
      {loaded && !filesError && !files.length ? <p className="muted">{filtered ? t('files.noMatch') : t('files.none')}</p> : null}
      {files.length ? <FileTable files={files} /> : null}
      {hasMore ? (
        <div className="row" style={{ marginTop: 8 }}>
          <span className="muted small">{t('files.shown', { count: files.length })}</span>
          <button type="button" className="btn btn-small" disabled={loadingMore} onClick={() => void loadMore()}>
            {loadingMore ? t('files.loadingMore') : t('files.loadMore')}
          </button>
        </div>
      ) : null}
    </Screen>
  );
}
