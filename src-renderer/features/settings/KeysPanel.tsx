import { useState } from 'react';
import { api, ops } from '../../api';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNote } from '../../components/ErrorNote';
import { formatRelative, formatTime } from '../../components/format';
import { useLoad } from '../../components/use-load';
import { toast } from '../../stores/toasts';
import { askConfirm } from '../../stores/confirm';
import { TableHead } from '../../components/TableHead';
import { t, useT } from '../../i18n';

export function KeysPanel() {
  const keys = useLoad(() => api.call(ops.listKeys, {}), []);
  const tr = useT();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const create = async () => {
    try {
      const k = await api.call(ops.createKey, { body: { name: name.trim() } });
      setCreated(k.key);
      setName('');
      setError(null);
      await keys.reload();
    } catch (err) {
      setError(err);
    }
  };
  const revoke = async (id: number, keyName: string) => {
    if (!(await askConfirm({ title: t('settings.keys.revokeTitle', { name: keyName }), body: t('settings.keys.revokeBody'), confirmLabel: t('settings.keys.revokeConfirm'), danger: true }))) return;
    try {
      await api.call(ops.revokeKey, { params: { id } });
      toast(t('settings.keys.revoked'));
      await keys.reload();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <div className="stack">
      <p className="muted">{tr('settings.keys.intro')}</p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) void create();
        }}
      >
        <label className="field grow">
          <span>{tr('settings.keys.newName')}</span>
          <input value={name} placeholder={tr('settings.keys.newNameExample')} onChange={(e) => setName(e.target.value)} data-testid="key-name" />
        </label>
        <button type="submit" className="btn btn-primary" disabled={!name.trim()} style={{ alignSelf: 'flex-end' }}>
          {tr('settings.keys.create')}
        </button>
      </form>
      {created ? (
        <div className="note note-warn stack" role="status">
          <strong>{tr('settings.keys.shownOnce')}</strong>
          <div className="secret" data-testid="new-key">
            {created}
          </div>
          <div className="row">
            <CopyButton text={created} />
            <button type="button" className="btn btn-small" onClick={() => setCreated(null)}>
              {tr('settings.keys.done')}
            </button>
          </div>
        </div>
      ) : null}
      <ErrorNote error={error} />
      <ErrorNote error={keys.error} what={tr('settings.tabs.keys')} />
      {keys.data && !keys.data.data.length ? <p className="muted">{tr('settings.keys.none')}</p> : null}
      {keys.data?.data.length ? (
        <table className="table" data-testid="key-table">
          <TableHead columns={[tr('settings.keys.columns.name'), tr('settings.keys.columns.prefix'), tr('settings.keys.columns.created'), tr('settings.keys.columns.lastUsed'), tr('settings.keys.columns.state'), { hidden: tr('settings.keys.columns.actions') }]} />
          <tbody>
            {keys.data.data.map((k) => (
              <tr key={k.id} data-testid="key-row" data-name={k.name} data-revoked={k.revoked_at ? 'true' : 'false'}>
                <td>{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td className="small muted" data-testid="key-created">
                  {formatTime(k.created_at)}
                </td>
                <td className="small muted" title={k.last_used_at ? formatTime(k.last_used_at) : undefined} data-testid="key-last-used">
                  {k.last_used_at ? formatRelative(k.last_used_at) : tr('settings.keys.never')}
                </td>
                <td>{k.revoked_at ? <span className="badge badge-error">{tr('settings.keys.revokedState')}</span> : <span className="badge badge-ok">{tr('settings.keys.active')}</span>}</td>
                <td>
                  {!k.revoked_at ? (
                    <button type="button" className="btn btn-small" onClick={() => void revoke(k.id, k.name)}>
                      {tr('settings.keys.revoke')}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
