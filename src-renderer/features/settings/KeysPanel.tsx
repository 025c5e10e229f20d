import { useState } from 'react';
import { api } from '../../api';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNote } from '../../components/ErrorNote';
import { formatTime } from '../../components/format';
import { useLoad } from '../../components/use-load';
import { toast } from '../../stores/toasts';
import { askConfirm } from '../../components/confirm';
import { TableHead } from '../../components/TableHead';

export function KeysPanel() {
  const keys = useLoad(() => api.keys.list(), []);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const create = async () => {
    try {
      const k = await api.keys.create(name.trim());
      setCreated(k.key);
      setName('');
      setError(null);
      await keys.reload();
    } catch (err) {
      setError(err);
    }
  };
  const revoke = async (id: number, keyName: string) => {
    if (!(await askConfirm({ title: `Revoke the key “${keyName}”?`, body: 'Programs using it lose access now.', confirmLabel: 'Revoke key', danger: true }))) return;
    try {
      await api.keys.revoke(id);
      toast('Key revoked.');
      await keys.reload();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <div className="stack">
      <p className="muted">Keys let other programs (scripts, n8n, the openai SDK, MCP clients) call the localhost API. Only a hash is stored.</p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) void create();
        }}
      >
        <label className="field grow">
          <span>New key name</span>
          <input value={name} placeholder="e.g. n8n on this laptop" onChange={(e) => setName(e.target.value)} data-testid="key-name" />
        </label>
        <button type="submit" className="btn btn-primary" disabled={!name.trim()} style={{ alignSelf: 'flex-end' }}>
          Create key
        </button>
      </form>
      {created ? (
        <div className="note note-warn stack" role="status">
          <strong>Your new key: copy it now, it is shown only once.</strong>
          <div className="secret" data-testid="new-key">
            {created}
          </div>
          <div className="row">
            <CopyButton text={created} />
            <button type="button" className="btn btn-small" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      ) : null}
      <ErrorNote error={error} />
      <ErrorNote error={keys.error} what="API keys" />
      {keys.data && !keys.data.data.length ? <p className="muted">No keys yet.</p> : null}
      {keys.data?.data.length ? (
        <table className="table" data-testid="key-table">
          <TableHead columns={['Name', 'Starts with', 'Created', 'Last used', 'State', { hidden: 'Actions' }]} />
          <tbody>
            {keys.data.data.map((k) => (
              <tr key={k.id} data-testid="key-row" data-name={k.name} data-revoked={k.revoked_at ? 'true' : 'false'}>
                <td>{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td className="small muted">{formatTime(k.created_at)}</td>
                <td className="small muted">{k.last_used_at ? formatTime(k.last_used_at) : 'never'}</td>
                <td>{k.revoked_at ? <span className="badge badge-error">revoked</span> : <span className="badge badge-ok">active</span>}</td>
                <td>
                  {!k.revoked_at ? (
                    <button type="button" className="btn btn-small" onClick={() => void revoke(k.id, k.name)}>
                      Revoke
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
