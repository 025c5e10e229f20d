import { useState } from 'react';
import type { McpServer, ToolServerRef } from '../../../src-main/platform/contract/tools';
import { api } from '../../api';
import { useLoad } from '../../components/use-load';
import { ErrorNote } from '../../components/ErrorNote';

/**
 * "Agent tools": which MCP servers this agent may use, all of a server's tools or some of them.
 * Apart from the chat's `tools` question, which governs only the web tools.
 */
export function AgentToolsField({ value, onChange }: { value: ToolServerRef[]; onChange(next: ToolServerRef[]): void }) {
  const servers = useLoad(() => api.tools.servers(), []);
  const refOf = (id: number) => value.find((r) => r.server_id === id);
  const set = (ref: ToolServerRef) => onChange(value.map((r) => (r.server_id === ref.server_id ? ref : r)));
  return (
    <fieldset className="stack" style={{ border: '1px solid var(--border)', borderRadius: 8 }} data-testid="agent-tools">
      <legend>Agent tools</legend>
      <ErrorNote error={servers.error} what="MCP servers" />
      {servers.data && !servers.data.data.length ? <p className="muted small">No MCP servers yet: add one in Settings → MCP servers.</p> : null}
      {servers.data?.data.map((s) => (
        <div key={s.id} className="stack">
          <label className="row small">
            <input
              type="checkbox"
              checked={!!refOf(s.id)}
              aria-label={`Use the tools of ${s.name}`}
              onChange={(e) => onChange(e.target.checked ? [...value, { server_id: s.id, tools: null }] : value.filter((r) => r.server_id !== s.id))}
            />
            <span>
              <strong>{s.name}</strong> <span className="muted">({s.approval === 'ask' ? 'asks before each call' : 'runs without asking'})</span>
            </span>
          </label>
          {refOf(s.id) ? <ToolChoice server={s} value={refOf(s.id)!} onChange={set} /> : null}
        </div>
      ))}
    </fieldset>
  );
}

/** All tools of the server, or the ones ticked (the list is read from the server when asked for). */
function ToolChoice({ server, value, onChange }: { server: McpServer; value: ToolServerRef; onChange(ref: ToolServerRef): void }) {
  const [names, setNames] = useState<string[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = async () => {
    try {
      setNames((await api.tools.list(server.id)).data.map((t) => t.name));
      setError(null);
    } catch (err) {
      setError(err);
    }
  };
  const chosen = value.tools;
  return (
    <div className="stack small" style={{ paddingLeft: 24 }}>
      {names === null ? (
        <div className="row">
          <span className="muted">{chosen ? `${chosen.length} tool${chosen.length === 1 ? '' : 's'}: ${chosen.join(', ')}` : 'All its tools'}</span>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => void load()}>
            Choose tools
          </button>
        </div>
      ) : (
        <div className="row" style={{ flexWrap: 'wrap' }}>
          {names.map((n) => (
            <label key={n} className="row small">
              <input
                type="checkbox"
                checked={!chosen || chosen.includes(n)}
                onChange={(e) => {
                  const cur = chosen ?? names;
                  const next = e.target.checked ? [...cur, n] : cur.filter((x) => x !== n);
                  onChange({ ...value, tools: next.length === names.length ? null : next });
                }}
              />
              <code>{n}</code>
            </label>
          ))}
        </div>
      )}
      <ErrorNote error={error} />
    </div>
  );
}
