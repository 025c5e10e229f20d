import { useState } from 'react';
import { api, messageOf, type FileObject } from '../../api';
import { formatBytes, formatCredits, formatTime } from '../../components/format';
import { useAgents } from '../../stores/agents';
import { toast } from '../../stores/toasts';
import { askConfirm } from '../../components/confirm';
import { useUploads } from '../../stores/uploads';
import { StatusBadge } from './StatusBadge';
import { TableHead } from '../../components/TableHead';

const failureReason = (f: FileObject) => f.error;

export function FileTable({ files }: { files: FileObject[] }) {
  const agents = useAgents((s) => s.agents);
  const removeFile = useUploads((s) => s.removeFile);
  const [agentId, setAgentId] = useState<number | ''>('');
  const [selected, setSelected] = useState<Set<number>>(new Set());

  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };

  const link = async () => {
    if (agentId === '' || !selected.size) return;
    try {
      const set = await api.agents.linkFiles(agentId, [...selected]);
      const agent = agents.find((a) => a.id === agentId);
      toast(`Linked ${selected.size} file${selected.size === 1 ? '' : 's'} to ${agent?.title ?? 'the agent'} (${set.files.length} linked in all).`);
      setSelected(new Set());
    } catch (err) {
      toast(`Could not link: ${messageOf(err)}`, 'error');
    }
  };

  const del = async (f: FileObject) => {
    if (!(await askConfirm({ title: `Delete ${f.filename}?`, body: 'Its passages and agent links go too.', confirmLabel: 'Delete file', danger: true }))) return;
    try {
      await removeFile(f.id);
      toast('File deleted.');
    } catch (err) {
      toast(`Could not delete: ${messageOf(err)}`, 'error');
    }
  };

  return (
    <>
      <div className="row" style={{ marginBottom: 8 }}>
        <span className="muted small">{selected.size} selected</span>
        <label className="field inline">
          <span>Link to</span>
          <select value={agentId} onChange={(e) => setAgentId(e.target.value ? Number(e.target.value) : '')}>
            <option value="">Choose an agent…</option>
            {agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.title}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn btn-small" disabled={agentId === '' || !selected.size} onClick={() => void link()}>
          Link selected
        </button>
      </div>
      <table className="table" data-testid="file-table">
        <TableHead columns={[{ hidden: 'Select' }, 'Name', 'Size', 'Status', 'Credits', 'Uploaded', { hidden: 'Actions' }]} />
        <tbody>
          {files.map((f) => (
            <tr key={f.id} data-testid="file-row" data-name={f.filename} data-status={f.status}>
              <td>
                <input type="checkbox" aria-label={`Select ${f.filename}`} checked={selected.has(f.id)} onChange={() => toggle(f.id)} />
              </td>
              <td>{f.filename}</td>
              <td className="muted">{formatBytes(f.bytes)}</td>
              <td>
                <StatusBadge status={f.status} title={failureReason(f)} />
                {f.status === 'failed' && failureReason(f) ? <div className="small muted">{failureReason(f)}</div> : null}
              </td>
              <td className="muted">{formatCredits(f.credits)}</td>
              <td className="muted small">{formatTime(f.created_at)}</td>
              <td>
                <button type="button" className="btn btn-small" aria-label={`Delete ${f.filename}`} onClick={() => void del(f)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
