import { api, ops } from '../../api';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { GpuSetting } from './GpuSetting';
import { useT } from '../../i18n';

export function DataPanel() {
  const info = useLoad(() => api.call(ops.getApp, {}), []);
  const t = useT();
  if (info.error) return <ErrorNote error={info.error} what={t('settings.data.what')} />;
  if (!info.data) return <p className="muted">{t('common.loading')}</p>;
  const dir = info.data.data_dir;
  return (
    <dl className="stack" style={{ maxWidth: 720 }}>
      <div>
        <dt className="muted small">{t('settings.tabs.data')}</dt>
        <dd className="row" style={{ margin: 0 }}>
          <code data-testid="data-dir">{dir}</code>
          <CopyButton text={dir} label={t('settings.data.copyPath')} />
        </dd>
        <dd className="muted small" style={{ margin: 0 }}>
          {t('settings.data.help')}
        </dd>
      </div>
      <div>
        <dt className="muted small">{t('settings.data.version')}</dt>
        <dd style={{ margin: 0 }}>
          {info.data.electron
            ? t('settings.data.versionDesktop', { version: info.data.version, electron: info.data.electron, schema: info.data.schema_version, platform: info.data.platform })
            : t('settings.data.versionBrowser', { version: info.data.version, schema: info.data.schema_version, platform: info.data.platform })}
        </dd>
      </div>
      <div>
        <dt className="muted small">{t('settings.data.secrets')}</dt>
        <dd style={{ margin: 0 }}>{info.data.secrets_encrypted ? t('settings.data.encrypted') : t('settings.data.unencrypted')}</dd>
      </div>
      <GpuSetting initial={info.data.gpu} />
    </dl>
  );
}
