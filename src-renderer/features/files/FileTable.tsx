import { useState } from 'react';
import { api, messageOf, type FileObject, ops } from '../../api';
import { formatBytes, formatCredits, formatTime } from '../../components/format';
import { useAgents } from '../../stores/agents';
import { toast } from '../../stores/toasts';
import { askConfirm } from '../../stores/confirm';
import { useFiles } from '../../stores/files';
import { StatusBadge } from './StatusBadge';
import { TableHead } from '../../components/TableHead';
import { FileViewer } from './FileViewer';
import { useT } from '../../i18n';

const failureReason = (f: FileObject) => f.error;

export function FileTable({ files }: { files: FileObject[] }) {
  const agents = useAgents((s) => s.agents);
  const removeFile = useFiles((s) => s.removeFile);
  const [agentId, setAgentId] = useState<number | ''>('');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [previewing, setPreviewing] = useState<number | null>(null);
  const t = useT();

  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };

  const link = async () => {
    if (agentId === '' || !selected.size) return;
    try {
      const set = await api.call(ops.linkAgentFiles, { params: { agentId }, body: { file_ids: [...selected] } });
      const agent = agents.find((a) => a.id === agentId);
      toast(t('files.table.linked', { count: selected.size, agent: agent?.title ?? t('files.table.theAgent'), total: set.files.length }));
      setSelected(new Set());
    } catch (err) {
      toast(t('files.table.linkFailed', { reason: messageOf(err) }), 'error');
    }
  };

  const del = async (f: FileObject) => {
    if (!(await askConfirm({ title: t('files.table.deleteTitle', { name: f.filename }), body: t('files.table.deleteBody'), confirmLabel: t('files.table.deleteConfirm'), danger: true }))) return;
    try {
      await removeFile(f.id);
      toast(t('files.table.deleted'));
    } catch (err) {
      toast(t('files.table.deleteFailed', { reason: messageOf(err) }), 'error');
    }
  };

  return (
    <>
      <div className="row" style={{ marginBottom: 8 }}>
        <span className="muted small">{t('files.table.selected', { count: selected.size })}</span>
        <label className="field inline">
          <span>{t('files.table.linkTo')}</span>
          <select value={agentId} onChange={(e) => setAgentId(e.target.value ? Number(e.target.value) : '')}>
            <option value="">{t('files.table.chooseAgent')}</option>
            {agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.title}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn btn-small" disabled={agentId === '' || !selected.size} onClick={() => void link()}>
          {t('files.table.link')}
        </button>
      </div>
      <table className="table" data-testid="file-table">
        <TableHead
          columns={[
            { hidden: t('files.table.select') },
            t('files.table.name'),
            t('files.table.size'),
            t('files.table.status'),
            t('files.table.credits'),
            t('files.table.uploaded'),
            { hidden: t('files.table.actions') },
          ]}
        />
        <tbody>
          {files.map((f) => (
            <tr key={f.id} data-testid="file-row" data-name={f.filename} data-status={f.status}>
              <td>
                <input type="checkbox" aria-label={t('files.table.selectOne', { name: f.filename })} checked={selected.has(f.id)} onChange={() => toggle(f.id)} />
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
                <span className="row file-actions">
                  <button type="button" className="btn btn-small" aria-label={t('files.table.previewOf', { name: f.filename })} onClick={() => setPreviewing(f.id)} data-testid="file-preview">
                    {t('files.table.preview')}
                  </button>
                  <button type="button" className="btn btn-small" aria-label={t('files.table.deleteOf', { name: f.filename })} onClick={() => void del(f)}>
                    {t('files.table.delete')}
                  </button>
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {previewing !== null ? <FileViewer fileId={previewing} onClose={() => setPreviewing(null)} /> : null}
    </>
  );
}
