import type { ToolServerRef } from '../../../src-main/platform/contract/tools';
import { api } from '../../api';
import { useLoad } from '../../components/use-load';
import { ErrorNote } from '../../components/ErrorNote';

/**
 * "Agent tools": which MCP servers this agent may use (all of a server's tools). Apart from the
 * chat's `tools` question, which governs only the web tools.
 */
export function AgentToolsField({ value, onChange }: { value: ToolServerRef[]; onChange(next: ToolServerRef[]): void }) {
  const servers = useLoad(() => api.tools.servers(), []);
  const on = new Set(value.map((r) => r.server_id));
  return (
    <fieldset className="stack" style={{ border: '1px solid var(--border)', borderRadius: 8 }} data-testid="agent-tools">
      <legend>Agent tools</legend>
      <ErrorNote error={servers.error} what="MCP servers" />
      {servers.data && !servers.data.data.length ? <p className="muted small">No MCP servers yet: add one in Settings → MCP servers.</p> : null}
      {servers.data?.data.map((s) => (
        <label key={s.id} className="row small">
          <input
            type="checkbox"
            checked={on.has(s.id)}
            aria-label={`Use the tools of ${s.name}`}
            onChange={(e) => onChange(e.target.checked ? [...value, { server_id: s.id, tools: null }] : value.filter((r) => r.server_id !== s.id))}
          />
          <span>
            <strong>{s.name}</strong> <span className="muted">({s.approval === 'ask' ? 'asks before each call' : 'runs without asking'})</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
