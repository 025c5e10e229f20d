import { useEffect, useState } from 'react';
import type { McpServer } from '../../../src-main/platform/contract/tools';
import { api, ApiError, messageOf, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { toast } from '../../stores/toasts';
import { askConfirm } from '../../stores/confirm';
import { McpServerForm } from './McpServerForm';
import { McpImport } from './McpImport';
import { platformText, t, useT } from '../../i18n';

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n).trimEnd()}…` : s);

const STATUS_BADGE: Record<McpServer['status'], string> = { running: 'badge badge-ok', failed: 'badge badge-error', starting: 'badge badge-warn', stopped: 'badge' };

type Tool = { name: string; description: string; input_schema: Record<string, unknown> };

/**
 * The platform's sentence why a server has no tool list (a 409) in the app's words; what the
 * server itself said stays in its log below.
 */
function toolsNoteOf(err: unknown): string {
  if (!(err instanceof ApiError && err.status === 409)) return messageOf(err);
  const raw = err.message;
  return platformText(raw, () =>
    /disabled/i.test(raw) ? t('settings.mcp.noteDisabled') : /not been fetched yet/i.test(raw) ? t('settings.mcp.noteNotFetched') : t('settings.mcp.noteFailed'),
  );
}

/** The server's own error (English, from the process) stays as it is under the app's sentence. */
const serverError = (raw: string) => platformText(raw, () => `${t('settings.mcp.serverFailed')} ${raw}`);

/** Settings → MCP servers: the tool sources agents may use, their status, stderr and tools. */
export function McpServersPanel() {
  const servers = useLoad(() => api.call(ops.listMcpServers, {}), []);
  const t = useT();
  return (
    <div className="stack" data-testid="mcp-panel">
      <p className="muted">{t('settings.mcp.intro')}</p>
      <ErrorNote error={servers.error} what={t('settings.tabs.tools')} />
      {servers.data && !servers.data.data.length ? <p className="muted">{t('settings.mcp.none')}</p> : null}
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
  const tr = useT();

  const loadTools = async () => {
    try {
      setTools((await api.call(ops.listMcpServerTools, { params: { id: s.id } })).data);
      setToolsNote(null);
      // A list fetched while the card said "starting": the server is up by now, show its status.
      if (s.status === 'starting') onChange();
    } catch (err) {
      setTools(null);
      // 409: none fetched yet, the server is disabled, or its last start failed; the sentence says which.
      setToolsNote(toolsNoteOf(err));
    }
  };
  useEffect(() => {
    void loadTools();
    // A saved change (new version) or a new status may bring a new list.
  }, [s.id, s.updated_at, s.status, s.enabled]);

  const refresh = async () => {
    setRefreshing(true);
    try {
      const list = (await api.call(ops.refreshMcpServerTools, { params: { id: s.id } })).data;
      setTools(list);
      setToolsNote(null);
      setShowTools(true);
    } catch (err) {
      setToolsNote(toolsNoteOf(err));
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
    if (!(await askConfirm({ title: t('settings.mcp.removeTitle', { name: s.name }), body: t('settings.mcp.removeBody'), confirmLabel: t('settings.mcp.removeConfirm'), danger: true }))) return;
    await act(async () => (await api.call(ops.deleteMcpServer, { params: { id: s.id } }), toast(t('settings.mcp.removed', { name: s.name }))));
  };

  const where = s.transport === 'stdio' ? [s.command, ...s.args].join(' ') : (s.url ?? '');
  return (
    <section className="card stack" aria-label={tr('settings.mcp.serverName', { name: s.name })} data-testid="mcp-server" data-name={s.name} data-status={s.status}>
      <div className="row">
        <h3 style={{ margin: 0 }} className="grow">
          {s.name} <span className={STATUS_BADGE[s.status]}>{tr(`settings.mcp.status.${s.status}`)}</span> {!s.enabled ? <span className="badge">{tr('settings.mcp.disabled')}</span> : null}
        </h3>
        <label className="field inline">
          <span>{tr('settings.mcp.toolCalls')}</span>
          <select value={s.approval} disabled={busy} onChange={(e) => void act(() => api.call(ops.updateMcpServer, { params: { id: s.id }, body: { approval: e.target.value as 'ask' | 'auto' } }))}>
            <option value="ask">{tr('settings.mcp.ask')}</option>
            <option value="auto">{tr('settings.mcp.auto')}</option>
          </select>
        </label>
        <button type="button" className="btn btn-small" disabled={busy} aria-expanded={editing} onClick={() => setEditing(!editing)} data-testid="mcp-edit">
          {tr('common.edit')}
        </button>
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => void act(() => api.call(ops.updateMcpServer, { params: { id: s.id }, body: { enabled: !s.enabled } }))}>
          {s.enabled ? tr('settings.mcp.disable') : tr('settings.mcp.enable')}
        </button>
        <button type="button" className="btn btn-small btn-danger" disabled={busy} onClick={() => void remove()}>
          {tr('common.remove')}
        </button>
      </div>
      <div className="small muted" style={{ wordBreak: 'break-all' }}>
        <code>{where}</code>
        {s.env_keys.length ? <> · {tr('settings.mcp.envHidden', { names: s.env_keys.join(', ') })}</> : null}
        {s.header_names.length ? <> · {tr('settings.mcp.headersHidden', { names: s.header_names.join(', ') })}</> : null}
        {s.always_tools.length ? <> · {tr('settings.mcp.alwaysAllowed', { names: s.always_tools.join(', ') })}</> : null}
      </div>
      {/* Said once: when the tools line gives the same reason, it stands for both. */}
      {s.error && !toolsNote?.includes(s.error) ? (
        <div className="note note-error" role="alert">
          {serverError(s.error)}
        </div>
      ) : null}
      <ErrorNote error={error} />
      <div className="mcp-tools-line small" data-testid="mcp-tools-line">
        {tools ? (
          <>
            <span>{tr('settings.mcp.tools', { count: tools.length })}</span>
            <button type="button" className="btn btn-small" aria-expanded={showTools} data-testid="mcp-list-tools" onClick={() => (showTools ? setShowTools(false) : void loadTools().then(() => setShowTools(true)))}>
              {showTools ? tr('settings.mcp.hideTools') : tr('settings.mcp.showTools')}
            </button>
          </>
        ) : toolsNote ? (
          <span role="status" data-testid="mcp-tools-note" className={s.error && toolsNote.includes(s.error) ? 'note note-error' : undefined}>
            {toolsNote}
          </span>
        ) : (
          <span className="muted">{tr('settings.mcp.reading')}</span>
        )}
        <button type="button" className="btn btn-small" disabled={refreshing || !s.enabled} aria-busy={refreshing} data-testid="mcp-refresh" onClick={() => void refresh()}>
          {refreshing ? tr('settings.remote.refreshing') : tr('settings.mcp.refresh')}
        </button>
      </div>
      {tools && showTools ? (
        <ul className="stack small" data-testid="mcp-tools" style={{ margin: 0, paddingLeft: 18 }}>
          {tools.map((tool) => (
            <li key={tool.name}>
              <code>{tool.name}</code> <span className="muted">{clip(tool.description.split('\n')[0], 160)}</span>
              <details>
                <summary className="small muted">{tr('settings.mcp.schema')}</summary>
                <pre className="small" style={{ maxHeight: 200, overflow: 'auto', whiteSpace: 'pre-wrap' }}>
                  {JSON.stringify(tool.input_schema, null, 2)}
                </pre>
              </details>
            </li>
          ))}
        </ul>
      ) : null}
      {s.stderr ? (
        <details>
          <summary className="small">{tr('settings.mcp.log')}</summary>
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
            toast(t('settings.mcp.saved', { name: s.name }));
            onChange();
          }}
        />
      ) : null}
    </section>
  );
}
