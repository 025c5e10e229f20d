import { api } from '../../api';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { GpuSetting } from './GpuSetting';

export function DataPanel() {
  const info = useLoad(() => api.app(), []);
  if (info.error) return <ErrorNote error={info.error} what="App information" />;
  if (!info.data) return <p className="muted">Loading…</p>;
  const dir = info.data.data_dir;
  return (
    <dl className="stack" style={{ maxWidth: 720 }}>
      <div>
        <dt className="muted small">Data folder</dt>
        <dd className="row" style={{ margin: 0 }}>
          <code data-testid="data-dir">{dir}</code>
          <CopyButton text={dir} label="Copy path" />
        </dd>
        <dd className="muted small" style={{ margin: 0 }}>
          The database, uploaded files and settings live here. Back it up by copying the folder while the app is closed.
        </dd>
      </div>
      <div>
        <dt className="muted small">Version</dt>
        <dd style={{ margin: 0 }}>
          Agent Desk {info.data.version}
          {info.data.electron ? ` (Electron ${info.data.electron})` : ' (browser mode)'} · database schema {info.data.schema_version} · {info.data.platform}
        </dd>
      </div>
      <div>
        <dt className="muted small">Secrets</dt>
        <dd style={{ margin: 0 }}>{info.data.secrets_encrypted ? 'Provider keys are encrypted with the system keychain.' : 'Provider keys are stored unencrypted in the data folder (no system keychain here).'}</dd>
      </div>
      <GpuSetting initial={info.data.gpu} />
    </dl>
  );
}
