import { useEffect, useState } from 'react';
import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { toast } from '../../stores/toasts';
import { t, useT } from '../../i18n';

const lines = (s: string) => s.split(/[\n,]/).map((x) => x.trim()).filter(Boolean);

export function LocalhostPanel() {
  const current = useLoad(() => api.call(ops.getLocalhostSettings, {}), []);
  const tr = useT();
  const [enabled, setEnabled] = useState(true);
  const [port, setPort] = useState('');
  const [hosts, setHosts] = useState('');
  const [origins, setOrigins] = useState('');
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (!current.data) return;
    setEnabled(current.data.enabled);
    setPort(String(current.data.port));
    setHosts(current.data.allowed_hosts.join('\n'));
    setOrigins(current.data.allowed_origins.join('\n'));
  }, [current.data]);

  if (current.error) return <ErrorNote error={current.error} what={tr('settings.localhost.what')} />;
  if (!current.data) return <p className="muted">{tr('common.loading')}</p>;
  const env = current.data.from_env;

  const save = async () => {
    try {
      await api.call(ops.updateLocalhostSettings, { body: { enabled, port: Number(port), allowed_hosts: lines(hosts), allowed_origins: lines(origins) } });
      setError(null);
      toast(t('settings.localhost.saved'));
      await current.reload();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <form
      className="stack"
      style={{ maxWidth: 640 }}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <p className="muted">{tr('settings.localhost.intro')}</p>
      <label className="field inline">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        <span>{tr('settings.localhost.serve')}</span>
      </label>
      <label className="field">
        <span>{tr('settings.localhost.port')}</span>
        <input type="number" min={1} max={65535} value={port} onChange={(e) => setPort(e.target.value)} style={{ maxWidth: 160 }} />
      </label>
      <label className="field">
        <span>{tr('settings.localhost.hosts')}</span>
        <textarea rows={3} value={hosts} placeholder={tr('settings.providerForm.example', { value: 'my-pc.local' })} onChange={(e) => setHosts(e.target.value)} />
      </label>
      <label className="field">
        <span>{tr('settings.localhost.origins')}</span>
        <textarea rows={3} value={origins} placeholder={tr('settings.providerForm.example', { value: 'http://localhost:5678' })} onChange={(e) => setOrigins(e.target.value)} />
      </label>
      {env.allowed_hosts.length || env.allowed_origins.length ? (
        <p className="note note-muted small">
          {tr('settings.localhost.fromEnv', { list: [...env.allowed_hosts, ...env.allowed_origins].join(', ') })}
        </p>
      ) : null}
      <ErrorNote error={error} />
      <div>
        <button type="submit" className="btn btn-primary" disabled={!/^\d+$/.test(port)}>
          {tr('common.save')}
        </button>
      </div>
    </form>
  );
}
