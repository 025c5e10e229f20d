import { useState } from 'react';
import type { McpServer } from '../../../src-main/platform/contract/tools';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { toast } from '../../stores/toasts';
import { McpServerForm } from './McpServerForm';
import { McpImport } from './McpImport';

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n).trimEnd()}…` : s);

const STATUS_BADGE: Record<McpServer['status'], string> = { running: 'badge badge-ok', failed: 'badge badge-error', starting: 'badge badge-warn', stopped: 'badge' };

/** Settings → MCP servers: the tool sources agents may use, their status, stderr and tools. */
export function McpServersPanel() {
  const servers = useLoad(() => api.tools.servers(), []);
  return (
    <div className="stack" data-testid="mcp-panel">
      <p className="muted">
        MCP servers give agents tools (files, databases, browsers…). A server starts the first time an agent or this page needs it and stops when Agent Desk quits. Give an
        agent its servers in Agents → Edit → Agent tools.
      </p>
      <ErrorNote error={servers.error} what="MCP servers" />
      {servers.data && !servers.data.data.length ? <p className="muted">No MCP servers yet.</p> : null}
      {servers.data?.data.map((s) => <ServerCard key={s.id} server={s} onChange={() => void servers.reload()} />)}
      <McpServerForm onAdded={() => void servers.reload()} />
      <McpImport onImported={() => void servers.reload()} />
    </div>
  );
}

function ServerCard({ server: s, onChange }: { server: McpServer; onChange(): void }) {
  const [tools, setTools] = useState<{ name: string; description: string; input_schema: Record<string, unknown> }[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const act = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await fn();
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
      onChange();
    }
  };
  const where = s.transport === 'stdio' ? [s.command, ...s.args].join(' ') : (s.url ?? '');
  return (
    <section className="card stack" aria-label={`MCP server ${s.name}`} data-testid="mcp-server" data-name={s.name} data-status={s.status}>
      <div className="row">
        <h3 style={{ margin: 0 }} className="grow">
          {s.name} <span className={STATUS_BADGE[s.status]}>{s.status}</span> {!s.enabled ? <span className="badge">disabled</span> : null}
        </h3>
        <label className="field inline">
          <span>Tool calls</span>
          <select value={s.approval} disabled={busy} onChange={(e) => void act(() => api.tools.update(s.id, { approval: e.target.value as 'ask' | 'auto' }))}>
            <option value="ask">Ask me first</option>
            <option value="auto">Run without asking</option>
          </select>
        </label>
        <button type="button" className="btn btn-small" disabled={busy} data-testid="mcp-list-tools" onClick={() => void act(async () => setTools((await api.tools.list(s.id)).data))}>
          {tools ? 'Refresh tools' : 'Show tools'}
        </button>
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => void act(() => api.tools.update(s.id, { enabled: !s.enabled }))}>
          {s.enabled ? 'Disable' : 'Enable'}
        </button>
        <button
          type="button"
          className="btn btn-small btn-danger"
          disabled={busy}
          onClick={() => {
            if (confirm(`Remove the MCP server "${s.name}"? Agents using it lose its tools.`)) void act(async () => (await api.tools.remove(s.id), toast('Server removed.')));
          }}
        >
          Remove
        </button>
      </div>
      <div className="small muted" style={{ wordBreak: 'break-all' }}>
        <code>{where}</code>
        {s.env_keys.length ? <> · env: {s.env_keys.join(', ')} (hidden)</> : null}
        {s.header_names.length ? <> · headers: {s.header_names.join(', ')} (hidden)</> : null}
        {s.always_tools.length ? <> · always allowed: {s.always_tools.join(', ')}</> : null}
      </div>
      {s.error ? (
        <div className="note note-error" role="alert">
          {s.error}
        </div>
      ) : null}
      <ErrorNote error={error} />
      {tools ? (
        <ul className="stack small" data-testid="mcp-tools" style={{ margin: 0, paddingLeft: 18 }}>
          {tools.map((t) => (
            <li key={t.name}>
              <code>{t.name}</code> <span className="muted">{clip(t.description.split('\n')[0], 160)}</span>
              <details>
                <summary className="small muted">Input schema</summary>
                <pre className="small" style={{ maxHeight: 200, overflow: 'auto', whiteSpace: 'pre-wrap' }}>
                  {JSON.stringify(t.input_schema, null, 2)}
                </pre>
              </details>
            </li>
          ))}
        </ul>
      ) : null}
      {s.stderr ? (
        <details>
          <summary className="small">Server log (stderr)</summary>
          <pre className="small" style={{ maxHeight: 160, overflow: 'auto', whiteSpace: 'pre-wrap' }}>
            {s.stderr}
          </pre>
        </details>
      ) : null}
    </section>
  );
}
