import { useEffect, useState } from 'react';
import type { McpServer } from '../../../src-main/platform/contract/tools';
import { api, ApiError, messageOf } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { toast } from '../../stores/toasts';
import { askConfirm } from '../../components/confirm';
import { McpServerForm } from './McpServerForm';
import { McpImport } from './McpImport';

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n).trimEnd()}…` : s);

const STATUS_BADGE: Record<McpServer['status'], string> = { running: 'badge badge-ok', failed: 'badge badge-error', starting: 'badge badge-warn', stopped: 'badge' };

type Tool = { name: string; description: string; input_schema: Record<string, unknown> };

/** Settings → MCP servers: the tool sources agents may use, their status, stderr and tools. */
export function McpServersPanel() {
  const servers = useLoad(() => api.tools.servers(), []);
  return (
    <div className="stack" data-testid="mcp-panel">
      <p className="muted">
        MCP servers give agents tools (files, databases, browsers…). A server starts when it is saved, when you refresh its tools or when an agent needs it, and stops when Agent Desk
        quits. Give an agent its servers in Agents → Edit → Agent tools.
      </p>
      <ErrorNote error={servers.error} what="MCP servers" />
      {servers.data && !servers.data.data.length ? <p className="muted">No MCP servers yet.</p> : null}
      {servers.data?.data.map((s) => <ServerCard key={s.id} server={s} onChange={() => void servers.reload()} />)}
      <McpServerForm onSaved={() => void servers.reload()} />
      <McpImport onImported={() => void servers.reload()} />
    </div>
  );
}

function ServerCard({ server: s, onChange }: { server: McpServer; onChange(): void }) {
  // The tools as last fetched (GET never starts a server), or the platform's sentence why there is no list yet.
  const [tools, setTools] = useState<Tool[] | null>(null);
  const [toolsNote, setToolsNote] = useState<string | null>(null);
  const [showTools, setShowTools] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const loadTools = async () => {
    try {
      setTools((await api.tools.list(s.id)).data);
      setToolsNote(null);
      // A list fetched while the card said "starting": the server is up by now, show its status.
      if (s.status === 'starting') onChange();
    } catch (err) {
      setTools(null);
      // 409: none fetched yet, the server is disabled, or its last start failed; the sentence says which.
      setToolsNote(err instanceof ApiError && err.status === 409 ? err.message : messageOf(err));
    }
  };
  useEffect(() => {
    void loadTools();
    // A saved change (new version) or a new status may bring a new list.
  }, [s.id, s.updated_at, s.status, s.enabled]);

  const refresh = async () => {
    setRefreshing(true);
    try {
      const list = (await api.tools.refresh(s.id)).data;
      setTools(list);
      setToolsNote(null);
      setShowTools(true);
    } catch (err) {
      setToolsNote(err instanceof ApiError && err.status === 409 ? err.message : messageOf(err));
    } finally {
      setRefreshing(false);
      onChange();
    }
  };

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
  const remove = async () => {
    if (!(await askConfirm({ title: `Remove the MCP server “${s.name}”?`, body: 'Agents using it lose its tools.', confirmLabel: 'Remove server', danger: true }))) return;
    await act(async () => (await api.tools.remove(s.id), toast(`Server “${s.name}” removed.`)));
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
        <button type="button" className="btn btn-small" disabled={busy} aria-expanded={editing} onClick={() => setEditing(!editing)} data-testid="mcp-edit">
          Edit
        </button>
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => void act(() => api.tools.update(s.id, { enabled: !s.enabled }))}>
          {s.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" className="btn btn-small btn-danger" disabled={busy} onClick={() => void remove()}>
          Remove
        </button>
      </div>
      <div className="small muted" style={{ wordBreak: 'break-all' }}>
        <code>{where}</code>
        {s.env_keys.length ? <> · env: {s.env_keys.join(', ')} (hidden)</> : null}
        {s.header_names.length ? <> · headers: {s.header_names.join(', ')} (hidden)</> : null}
        {s.always_tools.length ? <> · always allowed: {s.always_tools.join(', ')}</> : null}
      </div>
      {/* Said once: when the tools line gives the same reason, it stands for both. */}
      {s.error && !toolsNote?.includes(s.error) ? (
        <div className="note note-error" role="alert">
          {s.error}
        </div>
      ) : null}
      <ErrorNote error={error} />
      <div className="mcp-tools-line small" data-testid="mcp-tools-line">
        {tools ? (
          <>
            <span>
              {tools.length} tool{tools.length === 1 ? '' : 's'}
            </span>
            <button type="button" className="btn btn-small" aria-expanded={showTools} data-testid="mcp-list-tools" onClick={() => (showTools ? setShowTools(false) : void loadTools().then(() => setShowTools(true)))}>
              {showTools ? 'Hide tools' : 'Show tools'}
            </button>
          </>
        ) : toolsNote ? (
          <span role="status" data-testid="mcp-tools-note" className={s.error && toolsNote.includes(s.error) ? 'note note-error' : undefined}>
            {toolsNote}
          </span>
        ) : (
          <span className="muted">Reading the tools…</span>
        )}
        <button type="button" className="btn btn-small" disabled={refreshing || !s.enabled} aria-busy={refreshing} data-testid="mcp-refresh" onClick={() => void refresh()}>
          {refreshing ? 'Refreshing…' : 'Refresh tools'}
        </button>
      </div>
      {tools && showTools ? (
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
      {editing ? (
        <McpServerForm
          server={s}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            toast(`Saved “${s.name}”.`);
            onChange();
          }}
        />
      ) : null}
    </section>
  );
}
